@testable import SystemTLS
import TestSupport
import XCTest

/// Certificates checked as curl checks them: the chain to a trusted root, its dates, and the
/// host against the subject alternative names. Each failure comes from a real handshake with
/// the fixture that causes it.
final class VerificationTests: XCTestCase {
    /// The client's failure and what the server heard, for a client trusting the test CA
    /// (unless `client` says otherwise) connecting to a server presenting `certificate`.
    private func refusal(_ certificate: String, host: String = "localhost", client: TLSClientContext? = nil,
                         file: StaticString = #filePath, line: UInt = #line) throws -> (client: TLSFailure?, server: TLSFailure?) {
        let connection = try TLSTestKit.connect(client ?? TLSTestKit.clientContext(), host: host, to: TLSTestKit.serverContext(certificate))
        XCTAssertNil(connection.client.handshake, "the handshake must not complete", file: file, line: line)
        XCTAssertEqual(connection.client.machine.state, .failed, file: file, line: line)
        return (connection.client.failure, connection.server.failure)
    }

    func testTheDefaultConfigurationTrustsTheSystemStoreWhichLacksTheTestCA() throws {
        XCTAssertEqual(TLSConfiguration(), TLSConfiguration(trustRoots: .system, minimumVersion: .v1_2, certificateVerification: .full))
        let failure = try refusal("localhost", client: TLSClientContext(configuration: TLSConfiguration()))
        guard case .untrustedChain(let reason)? = failure.client else { return XCTFail("untrusted chain expected, got \(String(describing: failure.client))") }
        XCTAssertEqual(reason.code, OpenSSLConstants.verifyErrUnableToGetIssuerCertLocally)
        XCTAssertEqual(reason.reason, "unable to get local issuer certificate")
        XCTAssertTrue(reason.isUnknownRoot)
        XCTAssertEqual(failure.server, .handshakeFailed(.unknownCA), "the client told the server why (alert 48)")
    }

    func testASelfSignedServerIsRefusedByDefault() throws {
        for client in [try TLSClientContext(configuration: TLSConfiguration()), try TLSTestKit.clientContext()] {
            let failure = try refusal("self-signed", client: client)
            guard case .untrustedChain(let reason)? = failure.client else { return XCTFail("untrusted chain expected, got \(String(describing: failure.client))") }
            XCTAssertEqual(reason.code, OpenSSLConstants.verifyErrDepthZeroSelfSignedCert)
            XCTAssertEqual(reason.reason, "self-signed certificate")
            XCTAssertTrue(reason.isUnknownRoot)
        }
    }

    func testACertificateForAnotherNameIsAHostNameMismatch() throws {
        let failure = try refusal("other-name")
        XCTAssertEqual(failure.client, .hostNameMismatch(host: "localhost"))
        XCTAssertNotNil(failure.server)
    }

    func testAnExpiredCertificateSaysSo() throws {
        let failure = try refusal("expired")
        XCTAssertEqual(failure.client, .badCertificateDate(.expired))
        XCTAssertEqual(failure.server, .handshakeFailed(.certificateExpired), "alert 45 to the server")
    }

    func testACertificateNotYetValidSaysSo() throws {
        XCTAssertEqual(try refusal("not-yet-valid").client, .badCertificateDate(.notYetValid))
    }

    func testAnIPAddressMatchesOnlyIPNames() throws {
        XCTAssertEqual(try refusal("localhost", host: "127.0.0.2").client, .hostNameMismatch(host: "127.0.0.2"))
        XCTAssertEqual(try refusal("ip-as-dns-name", host: "127.0.0.1").client, .hostNameMismatch(host: "127.0.0.1"),
                       "an IP literal is not matched against a DNS name that spells it")
        XCTAssertEqual(try refusal("localhost", host: "::2").client, .hostNameMismatch(host: "::2"))
    }

    func testWildcardsMatchOneWholeLeftmostLabel() throws {
        let client = try TLSTestKit.clientContext()
        for host in ["api.wild.test", "API.Wild.Test"] {
            let connection = try TLSTestKit.connect(client, host: host, to: TLSTestKit.serverContext("wildcard"))
            XCTAssertNotNil(connection.client.handshake, "\(host) matches *.wild.test")
        }
        for host in ["a.b.wild.test", "wild.test", "foo.partial.test"] {
            XCTAssertEqual(try refusal("wildcard", host: host, client: client).client, .hostNameMismatch(host: host),
                           "\(host): a wildcard covers one whole label, never part of one (f*.partial.test)")
        }
    }

    func testVerificationNoneAcceptsAnyCertificate() throws {
        let client = try TLSTestKit.clientContext(trustRoots: .system, verification: .none)
        for certificate in ["self-signed", "expired", "other-name"] {
            let connection = try TLSTestKit.connect(client, to: TLSTestKit.serverContext(certificate))
            XCTAssertNotNil(connection.client.handshake, certificate)
            XCTAssertEqual(connection.server.handshake?.serverName, "localhost", "SNI is still sent")
        }
    }

    func testRootsGivenAsPEMTextOrFileAreTheOnlyRoots() throws {
        let fromText = try TLSTestKit.clientContext(trustRoots: .pem(TLSFixtures.text("ca.pem")))
        XCTAssertNotNil(try TLSTestKit.connect(fromText, to: TLSTestKit.serverContext()).client.handshake)
        // A root file holding only the self-signed certificate trusts that server, and no longer the CA's.
        let selfOnly = try TLSTestKit.clientContext(trustRoots: .pemFile(TLSFixtures.path("self-signed.pem")))
        XCTAssertNotNil(try TLSTestKit.connect(selfOnly, to: TLSTestKit.serverContext("self-signed")).client.handshake)
        guard case .untrustedChain? = try refusal("localhost", client: selfOnly).client else { return XCTFail("the CA is not a root here") }
    }

    func testAHostOpenSSLCannotCheckIsRefusedBeforeAnyByte() throws {
        let client = try TLSTestKit.clientContext()
        for host in ["", "[]", "exa\u{0}mple.com", "::zz", "."] {
            XCTAssertThrowsError(try TLSMachine(client: client, host: host), "\(host.debugDescription)") { error in
                XCTAssertEqual(error as? TLSFailure, .invalidHostName(host))
            }
        }
    }
}
