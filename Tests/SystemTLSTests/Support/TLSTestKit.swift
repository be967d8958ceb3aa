@testable import SystemTLS
import TestSupport

/// Contexts and machines made from the fixtures in `Tests/Fixtures/TLS`.
enum TLSTestKit {
    /// A server presenting the fixture `certificate` (`localhost`, `expired`, ...) with its key.
    static func serverContext(_ certificate: String = "localhost", minimumVersion: TLSVersion = .v1_2,
                              maximumVersion: TLSVersion? = nil, applicationProtocols: [String] = ["http/1.1"]) throws -> TLSServerContext {
        try TLSServerContext(configuration: TLSServerConfiguration(
            certificateChain: .pemFile(TLSFixtures.path("\(certificate).pem")),
            privateKey: .pemFile(TLSFixtures.path("\(certificate).key")),
            minimumVersion: minimumVersion, maximumVersion: maximumVersion, applicationProtocols: applicationProtocols))
    }

    /// A client trusting the test CA only (unless told otherwise).
    static func clientContext(trustRoots: TLSConfiguration.TrustRoots = .pemFile(TLSFixtures.caCertificate),
                              minimumVersion: TLSVersion = .v1_2, verification: TLSConfiguration.CertificateVerification = .full,
                              applicationProtocols: [String] = ["http/1.1"]) throws -> TLSClientContext {
        try TLSClientContext(configuration: TLSConfiguration(trustRoots: trustRoots, minimumVersion: minimumVersion,
                                                             certificateVerification: verification),
                             applicationProtocols: applicationProtocols)
    }

    /// A client for `host` and a server, after their handshake (or its failure).
    static func connect(_ client: TLSClientContext, host: String = "localhost", session: TLSSession? = nil,
                        to server: TLSServerContext, chunk: Int? = nil) throws -> Connection {
        Connection(client: try TLSMachine(client: client, host: host, session: session),
                   server: try TLSMachine(server: server), chunk: chunk)
    }

    /// `count` bytes of a fixed pseudo-random pattern.
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
