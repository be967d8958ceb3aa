import EventLoopIO
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// `https://` through the client's own TLS (the system's OpenSSL, on the loops) against stock
/// servers started by the tests: OpenSSL's `s_server` and, where installed, nginx. Each failure a
/// caller can meet is produced by a real handshake with the fixture that causes it
/// (`scripts/make-tls-fixtures.sh`). Skips, saying why, where the server's program or the
/// system's TLS library is missing.
final class HTTPSTests: XCTestCase {
    private var servers: [StockTLSServer] = []

    override func setUpWithError() throws {
        do throws(TLSFailure) {
            try TLSLibrary.load()
        } catch {
            throw XCTSkip("no TLS library loads here: \(error)")
        }
    }

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    /// `s_server` with the fixture `name` (`localhost`, `expired`, ...) and `options`.
    private func opensslServer(_ name: String, options: [String] = []) throws -> StockTLSServer {
        guard let server = try StockTLSServer.opensslServer(certificate: TLSFixtures.path("\(name).pem"),
                                                            key: TLSFixtures.path("\(name).key"), options: options) else {
            throw XCTSkip("no openssl command installed")
        }
        servers.append(server)
        return server
    }

    /// A client that trusts the test CA (the fixtures' root) and nothing else, unless `tls` says otherwise.
    private func client(_ tls: TLSConfiguration = TLSConfiguration(trustRoots: .pemFile(TLSFixtures.caCertificate))) -> HTTPClient {
        HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: tls))
    }

    /// Sends a GET and waits (bounded) for its one answer.
    private func get(_ url: String, on client: HTTPClient) throws -> Result<HTTPClientResponse, HTTPClientError> {
        let answers = Recorder<Result<HTTPClientResponse, HTTPClientError>>()
        let done = DispatchSemaphore(value: 0)
        client.execute(HTTPClientRequest(url: try XCTUnwrap(URL(string: url)))) { result in
            answers.append(result)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "answered")
        return try XCTUnwrap(answers.values.first)
    }

    /// The TLS failure of `result`, failing the test when it is something else.
    private func tlsFailure(_ result: Result<HTTPClientResponse, HTTPClientError>, file: StaticString = #filePath, line: UInt = #line) -> TLSFailure? {
        guard case .failure(.tls(let failure)) = result else {
            XCTFail("expected a TLS failure, got \(result)", file: file, line: line)
            return nil
        }
        return failure
    }

    func testAGetOverTLSVerifiedAgainstTheTestCA() throws {
        let server = try opensslServer("localhost")
        let client = client()
        let response = try get("https://localhost:\(server.port)/", on: client).get()
        XCTAssertEqual(response.status, 200)
        let page = String(decoding: response.body, as: UTF8.self)
        XCTAssertTrue(page.contains("New, TLSv1.3"), "a full TLS 1.3 handshake: \(page.prefix(300))")
        // By IP literal: the certificate names 127.0.0.1 as an IP address.
        XCTAssertEqual(try get("https://127.0.0.1:\(server.port)/", on: client).get().status, 200)
    }

    /// A new connection to a host offers the session the last one brought: the server says `Reused`.
    func testANewConnectionResumesTheHostsLastSession() throws {
        let server = try opensslServer("localhost")
        let client = client()
        let first = String(decoding: try get("https://localhost:\(server.port)/", on: client).get().body, as: UTF8.self)
        XCTAssertTrue(first.contains("New, "), String(first.prefix(300)))
        // s_server answers HTTP/1.0 and closes: the second request opens a new connection.
        let second = String(decoding: try get("https://localhost:\(server.port)/", on: client).get().body, as: UTF8.self)
        XCTAssertTrue(second.contains("Reused, "), "the second connection resumed: \(second.prefix(300))")
    }

    /// Verification cannot be skipped by accident: the default (the system's trust store) refuses
    /// a self-signed server, as an unknown root.
    func testTheDefaultRefusesASelfSignedServer() throws {
        let server = try opensslServer("self-signed")
        let failure = tlsFailure(try get("https://localhost:\(server.port)/", on: HTTPClient()))
        guard case .untrustedChain(let reason)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertTrue(reason.isUnknownRoot, "\(reason)")
        XCTAssertEqual(reason.code, 18, "X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT")
    }

    /// `.none` accepts the self-signed server (and only when asked for).
    func testVerificationNoneAcceptsASelfSignedServer() throws {
        let server = try opensslServer("self-signed")
        let client = client(TLSConfiguration(certificateVerification: .none))
        XCTAssertEqual(try get("https://localhost:\(server.port)/", on: client).get().status, 200)
    }

    func testAServerOfAnotherNameIsAHostNameMismatch() throws {
        let server = try opensslServer("other-name")
        XCTAssertEqual(tlsFailure(try get("https://localhost:\(server.port)/", on: client())), .hostNameMismatch(host: "localhost"))
    }

    func testAnExpiredCertificateIsABadDate() throws {
        let server = try opensslServer("expired")
        XCTAssertEqual(tlsFailure(try get("https://localhost:\(server.port)/", on: client())), .badCertificateDate(.expired))
    }

    func testACertificateNotYetValidIsABadDate() throws {
        let server = try opensslServer("not-yet-valid")
        XCTAssertEqual(tlsFailure(try get("https://localhost:\(server.port)/", on: client())), .badCertificateDate(.notYetValid))
    }

    /// A client that wants TLS 1.3 at least, against a server that speaks 1.2 at most.
    func testNoVersionInCommonIsRefused() throws {
        let server = try opensslServer("localhost", options: ["-tls1_2"])
        var tls = TLSConfiguration(trustRoots: .pemFile(TLSFixtures.caCertificate))
        tls.minimumVersion = .v1_3
        XCTAssertEqual(tlsFailure(try get("https://localhost:\(server.port)/", on: client(tls))), .protocolVersionRefused)
    }

    /// A server that accepts only a cipher the client never offers ends the handshake with an alert.
    func testNoCipherInCommonIsAHandshakeFailureWithTheAlert() throws {
        let server = try opensslServer("localhost", options: ["-tls1_2", "-cipher", "NULL-SHA256@SECLEVEL=0"])
        let failure = tlsFailure(try get("https://localhost:\(server.port)/", on: client()))
        guard case .handshakeFailed(let alert)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(alert, .handshakeFailure)
    }

    /// nginx over TLS with keep-alive: sequential requests share one connection.
    func testKeptAliveRequestsToNginx() throws {
        guard let server = try StockTLSServer.nginx(certificate: TLSFixtures.path("localhost.pem"), key: TLSFixtures.path("localhost.key")) else {
            throw XCTSkip("nginx is not installed (CI installs it)")
        }
        servers.append(server)
        let client = client()
        for _ in 0..<20 {
            let response = try get("https://localhost:\(server.port)/file.txt", on: client).get()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.body.count, 2_048)
        }
        XCTAssertEqual(client.idleConnectionCount, 1, "one kept-alive connection served them all")
    }

    /// A scheme neither `http` nor `https` is still refused before any connection.
    func testOtherSchemesAreUnsupported() throws {
        guard case .failure(.unsupportedScheme) = try get("ftp://localhost/", on: client()) else { return XCTFail("ftp was accepted") }
    }
}
