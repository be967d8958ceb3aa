@testable import SystemTLS
import TestSupport
import XCTest

/// The server's identity as curl checks it (RFC 6125, RFC 9525): the host in the URL against the
/// certificate's names, sent as SNI when it is a DNS name (RFC 6066 section 3); the chain's
/// checks, each a failure that says which; and sessions resumed only under the trust they were
/// verified with. Real handshakes between a client and a server machine, in memory.
final class ServiceIdentityRulesTests: XCTestCase {
    /// A client trusting the test CA connecting to `host` on a server presenting `certificate`.
    private func connect(_ certificate: String, host: String, client: TLSClientContext? = nil) throws -> Connection {
        try TLSTestKit.connect(client ?? TLSTestKit.clientContext(), host: host, to: TLSTestKit.serverContext(certificate))
    }

    /// The client's failure; the handshake must not have completed.
    private func refusal(_ certificate: String, host: String = "localhost", client: TLSClientContext? = nil,
                         file: StaticString = #filePath, line: UInt = #line) throws -> TLSFailure? {
        let connection = try connect(certificate, host: host, client: client)
        XCTAssertNil(connection.client.handshake, "\(host) on \(certificate): the handshake must not complete", file: file, line: line)
        return connection.client.failure
    }

    // MARK: Host names

    func testHostNamesMatchWhateverTheirCase() throws {
        for host in ["LOCALHOST", "LocalHost"] {
            let connection = try connect("localhost", host: host)
            XCTAssertNotNil(connection.client.handshake, host)
        }
        XCTAssertNotNil(try connect("other-name", host: "Other.Example.TEST").client.handshake)
    }

    /// `localhost.` is `localhost`, fully qualified: SNI carries no trailing dot (RFC 6066
    /// section 3) and the certificate's `localhost` matches.
    func testATrailingDotIsNeitherSentNorMatched() throws {
        for host in ["localhost.", "LOCALHOST."] {
            let connection = try connect("localhost", host: host)
            XCTAssertNotNil(connection.client.handshake, host)
            XCTAssertEqual(connection.server.handshake?.serverName?.lowercased(), "localhost", "\(host): SNI without the dot")
        }
        XCTAssertEqual(try refusal("other-name", host: "localhost."), .hostNameMismatch(host: "localhost."))
    }

    /// IP literals (IPv4, IPv6 with or without brackets) are checked against IP names only, and
    /// never sent as SNI (RFC 6066 section 3).
    func testIPLiteralsAreVerifiedAgainstIPNamesWithoutSNI() throws {
        for host in ["127.0.0.1", "::1", "[::1]", "[0:0:0:0:0:0:0:1]"] {
            let connection = try connect("localhost", host: host)
            XCTAssertNotNil(connection.client.handshake, "\(host) matches an IP name of the certificate")
            XCTAssertNotNil(connection.server.handshake, host)
            XCTAssertNil(connection.server.handshake?.serverName, "\(host): no SNI for an IP literal")
        }
        XCTAssertEqual(try refusal("other-name", host: "[::1]"), .hostNameMismatch(host: "[::1]"))
        XCTAssertEqual(try refusal("ip-as-dns-name", host: "127.0.0.1"), .hostNameMismatch(host: "127.0.0.1"),
                       "an IP in a DNS name is no IP name")
    }

    /// The other spellings of an IPv4 address `getaddrinfo` connects to (`inet_aton`'s, which
    /// curl and WHATWG URLs normalize: `127.1`, hex, octal, one number) are that address: checked
    /// against IP names as 127.0.0.1, never sent as SNI.
    func testShortAndNumericIPv4SpellingsAreTheAddress() throws {
        for host in ["127.1", "127.0.1", "0x7f.0.0.1", "0177.0.0.01", "2130706433", "0x7F000001", "127.0.0.1."] {
            let connection = try connect("localhost", host: host)
            XCTAssertNotNil(connection.client.handshake, "\(host) is 127.0.0.1: \(connection.client.events)")
            XCTAssertNotNil(connection.server.handshake, host)
            XCTAssertNil(connection.server.handshake?.serverName, "\(host): no SNI for an address")
        }
        XCTAssertEqual(try refusal("localhost", host: "127.2"), .hostNameMismatch(host: "127.2"), "127.0.0.2")
        for name in ["256.0.0.1", "1.2.3.4.5", "0x", "08.0.0.1", "127.0.0.1a", "1.16777216"] {
            XCTAssertEqual(try refusal("localhost", host: name), .hostNameMismatch(host: name), "\(name) is no address: a DNS name")
        }
    }

    /// A name with an empty label is no DNS name. OpenSSL reads a leading dot as "any name under
    /// this domain" (`.example.test` would accept `other.example.test`'s certificate), so such
    /// a host is refused before any byte, as one OpenSSL cannot check.
    func testAHostWithAnEmptyLabelIsRefused() throws {
        let client = try TLSTestKit.clientContext()
        for host in [".example.test", "..example.test", "other..example.test", ".wild.test", "localhost.."] {
            XCTAssertThrowsError(try TLSMachine(client: client, host: host), host) { error in
                XCTAssertEqual(error as? TLSFailure, .invalidHostName(host))
            }
        }
    }

    /// SNI's `HostName` and a certificate's DNS names are ASCII (RFC 6066 section 3, RFC 5280
    /// section 4.2.1.6): an internationalized name goes as its A-labels, which match; its
    /// U-labels are refused before any byte (converting them is the caller's, as curl's URL
    /// handling does), never sent as raw UTF-8.
    func testInternationalizedNamesAreCheckedAsALabels() throws {
        let connection = try connect("idn", host: "xn--bcher-kva.test")
        XCTAssertNotNil(connection.client.handshake)
        XCTAssertEqual(connection.server.handshake?.serverName, "xn--bcher-kva.test")
        let client = try TLSTestKit.clientContext()
        for host in ["bücher.test", "BÜCHER.test"] {
            XCTAssertThrowsError(try TLSMachine(client: client, host: host), host) { error in
                XCTAssertEqual(error as? TLSFailure, .invalidHostName(host))
            }
        }
    }

    /// curl checks the common name only when the certificate has no DNS and no IP alternative
    /// name at all ("no alternative certificate subject name matches" otherwise); OpenSSL's
    /// own check would also read it when only IP names are there.
    func testTheCommonNameCountsOnlyWithoutAnyAlternativeName() throws {
        XCTAssertNotNil(try connect("common-name-only", host: "localhost").client.handshake, "as curl: CN localhost, no SAN")
        XCTAssertEqual(try refusal("common-name-and-ip", host: "localhost"), .hostNameMismatch(host: "localhost"),
                       "an IP alternative name present: the common name is not read")
        XCTAssertNotNil(try connect("common-name-and-ip", host: "127.0.0.1").client.handshake, "its IP name matches")
        XCTAssertEqual(try refusal("common-name-only", host: "127.0.0.1"), .hostNameMismatch(host: "127.0.0.1"),
                       "an IP literal never matches a common name")
    }

    // MARK: Trust

    /// The server's chain builds from what it sent, in any order and with certificates it
    /// needs not, up to a trusted root.
    func testAChainOutOfOrderOrWithAnExtraCertificateVerifies() throws {
        for certificate in ["via-intermediate", "via-intermediate-reversed"] {
            XCTAssertNotNil(try connect(certificate, host: "localhost").client.handshake, certificate)
        }
    }

    func testALeafWithoutServerAuthIsRefusedSayingWhy() throws {
        guard case .untrustedChain(let reason)? = try refusal("client-auth-only") else {
            return XCTFail("an untrusted chain expected")
        }
        XCTAssertEqual(reason.code, 26, "X509_V_ERR_INVALID_PURPOSE: \(reason)")
        XCTAssertEqual(reason.reason, "unsuitable certificate purpose")
        XCTAssertFalse(reason.isUnknownRoot)
    }

    func testAnIntermediateThatIsNoCAIsRefusedSayingWhy() throws {
        guard case .untrustedChain(let reason)? = try refusal("via-not-a-ca") else {
            return XCTFail("an untrusted chain expected")
        }
        // X509_V_ERR_INVALID_CA: 24 in OpenSSL 1.1.1, 79 in 3.x; its text is the same.
        XCTAssertEqual(reason.reason, "invalid CA certificate", "\(reason)")
        XCTAssertFalse(reason.isUnknownRoot)
    }

    func testCertificateDatesAreCheckedWhateverTheName() throws {
        XCTAssertEqual(try refusal("expired", host: "127.0.0.1"), .badCertificateDate(.expired))
        XCTAssertEqual(try refusal("not-yet-valid", host: "[::1]"), .badCertificateDate(.notYetValid))
    }

    // MARK: Sessions

    /// A session verified under one trust configuration is never offered by a context with
    /// another: a client that trusts less runs the full handshake and refuses the server.
    func testASessionIsNotResumedUnderOtherTrust() throws {
        let server = try TLSTestKit.serverContext()
        let trusting = try TLSClientContext.shared(for: TLSConfiguration(trustRoots: .pemFile(TLSFixtures.caCertificate)))
        let first = try TLSTestKit.connect(trusting, to: server)
        let session = try XCTUnwrap(first.client.machine.session)
        XCTAssertEqual(try TLSTestKit.connect(trusting, session: session, to: server).client.handshake?.resumedSession, true)

        let stricter = try TLSClientContext.shared(for: TLSConfiguration(trustRoots: .pemFile(TLSFixtures.path("self-signed.pem"))))
        let second = try TLSTestKit.connect(stricter, session: session, to: server)
        XCTAssertNil(second.client.handshake, "no resumption skips the stricter verification")
        guard case .untrustedChain? = second.client.failure else {
            return XCTFail("the CA is not trusted here: \(second.client.events)")
        }
    }

    /// A session is for the host it was made with, however another name reaches the same server.
    func testASessionIsNotOfferedToAnotherNameOfTheSameServer() throws {
        let server = try TLSTestKit.serverContext()
        let client = try TLSTestKit.clientContext()
        let session = try XCTUnwrap(TLSTestKit.connect(client, host: "localhost", to: server).client.machine.session)
        for host in ["127.0.0.1", "::1", "other.example.test"] {
            let connection = try TLSTestKit.connect(client, host: host, session: session, to: server)
            XCTAssertNotEqual(connection.client.handshake?.resumedSession, true, host)
            XCTAssertNotEqual(connection.server.handshake?.resumedSession, true, host)
        }
    }

    // MARK: Versions

    func testAMinimumOfTLS13RefusesATLS12Server() throws {
        let client = try TLSTestKit.clientContext(minimumVersion: .v1_3)
        let connection = try TLSTestKit.connect(client, to: TLSTestKit.serverContext(maximumVersion: .v1_2))
        XCTAssertNil(connection.client.handshake)
        XCTAssertEqual(connection.client.failure, .protocolVersionRefused)
    }
}
