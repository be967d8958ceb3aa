@testable import SystemTLS
import TestSupport
import XCTest

/// Configurations that cannot be used fail when their context is made, saying why; usable
/// ones are shared.
final class ConfigurationTests: XCTestCase {
    private func clientError(_ roots: TLSConfiguration.TrustRoots, protocols: [String] = ["http/1.1"]) -> TLSFailure? {
        do {
            _ = try TLSClientContext(configuration: TLSConfiguration(trustRoots: roots), applicationProtocols: protocols)
            return nil
        } catch {
            return error
        }
    }

    private func serverError(_ configuration: TLSServerConfiguration) -> TLSFailure? {
        do {
            _ = try TLSServerContext(configuration: configuration)
            return nil
        } catch {
            return error
        }
    }

    func testAMissingRootFileIsUnreadable() {
        XCTAssertEqual(clientError(.pemFile("/nonexistent/ca.pem")), .invalidConfiguration(.unreadableFile(path: "/nonexistent/ca.pem")))
    }

    func testRootsWithoutACertificateOrWithADamagedOneAreRefused() throws {
        XCTAssertEqual(clientError(.pem("no certificate here")), .invalidConfiguration(.noCertificate(source: "PEM text")))
        let key = TLSFixtures.path("ca.key")
        XCTAssertEqual(clientError(.pemFile(key)), .invalidConfiguration(.noCertificate(source: key)), "a key is not a certificate")
        let damaged = try TLSFixtures.text("ca.pem").replacingOccurrences(of: "M", with: "*")
        guard case .invalidConfiguration(.invalidCertificate(source: "PEM text", let error))? = clientError(.pem(damaged)) else {
            return XCTFail("a damaged certificate must be refused")
        }
        XCTAssertFalse(error.description.isEmpty)
    }

    func testAnInvalidProtocolNameIsRefused() {
        XCTAssertEqual(clientError(.system, protocols: [""]), .invalidConfiguration(.invalidApplicationProtocol("")))
        let long = String(repeating: "x", count: 256)
        XCTAssertEqual(clientError(.system, protocols: [long]), .invalidConfiguration(.invalidApplicationProtocol(long)))
    }

    func testAServerKeyOfAnotherCertificateIsAMismatch() {
        let configuration = TLSServerConfiguration(certificateChain: .pemFile(TLSFixtures.path("localhost.pem")),
                                                   privateKey: .pemFile(TLSFixtures.path("other-name.key")))
        XCTAssertEqual(serverError(configuration), .invalidConfiguration(.privateKeyMismatch))
    }

    func testAServerWithoutAKeyOrCertificateIsRefused() throws {
        let noKey = TLSServerConfiguration(certificateChain: .pemFile(TLSFixtures.path("localhost.pem")),
                                           privateKey: .pemFile(TLSFixtures.path("localhost.pem")))
        guard case .invalidConfiguration(.invalidPrivateKey(source: TLSFixtures.path("localhost.pem"), _))? = serverError(noKey) else {
            return XCTFail("a certificate is not a key")
        }
        let noChain = TLSServerConfiguration(certificateChain: .pem(""), privateKey: .pemFile(TLSFixtures.path("localhost.key")))
        XCTAssertEqual(serverError(noChain), .invalidConfiguration(.noCertificate(source: "PEM text")))
        let missing = TLSServerConfiguration(certificateChain: .pemFile("/nonexistent/cert.pem"), privateKey: .pem(""))
        XCTAssertEqual(serverError(missing), .invalidConfiguration(.unreadableFile(path: "/nonexistent/cert.pem")))
    }

    func testAServerVersionRangeMustNotBeEmpty() {
        let configuration = TLSServerConfiguration(certificateChain: .pemFile(TLSFixtures.path("localhost.pem")),
                                                   privateKey: .pemFile(TLSFixtures.path("localhost.key")),
                                                   minimumVersion: .v1_3, maximumVersion: .v1_2)
        XCTAssertEqual(serverError(configuration), .invalidConfiguration(.versionRange(minimum: .v1_3, maximum: .v1_2)))
    }

    func testOneSharedContextPerDistinctConfiguration() throws {
        let roots = TLSConfiguration.TrustRoots.pemFile(TLSFixtures.caCertificate)
        let a = try TLSClientContext.shared(for: TLSConfiguration(trustRoots: roots))
        let b = try TLSClientContext.shared(for: TLSConfiguration(trustRoots: roots))
        XCTAssertTrue(a === b, "the same configuration shares one SSL_CTX")
        XCTAssertFalse(a === (try TLSClientContext.shared(for: TLSConfiguration(trustRoots: roots, minimumVersion: .v1_3))))
        XCTAssertFalse(a === (try TLSClientContext.shared(for: TLSConfiguration(trustRoots: roots), applicationProtocols: [])))
        XCTAssertEqual(a.configuration, TLSConfiguration(trustRoots: roots))
        // And it works: two connections from it.
        for _ in 0..<2 {
            XCTAssertNotNil(try TLSTestKit.connect(a, to: TLSTestKit.serverContext()).client.handshake)
        }
    }

    func testConfigurationsAreValuesWithDesignsDefaults() {
        var configuration = TLSConfiguration()
        XCTAssertEqual(configuration.trustRoots, .system)
        XCTAssertEqual(configuration.minimumVersion, .v1_2)
        XCTAssertEqual(configuration.certificateVerification, .full)
        configuration.minimumVersion = .v1_3
        XCTAssertNotEqual(configuration, TLSConfiguration())
        XCTAssertLessThan(TLSVersion.v1_2, .v1_3)
        let server = TLSServerConfiguration(certificateChain: .pem("a"), privateKey: .pem("b"))
        XCTAssertEqual(server.minimumVersion, .v1_2)
        XCTAssertNil(server.maximumVersion)
        XCTAssertEqual(server.applicationProtocols, ["http/1.1"])
    }
}
