import EventLoopIO
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// TLS as the client uses it, against OpenSSL's `s_server`: how a framed response ends over TLS
/// (RFC 9112 §9.8: by its framing, however the connection closes after it; cut short, an error
/// whether a bare FIN or `close_notify` cut it), the names it sends and checks (an
/// internationalized host as its A-labels, as curl), sessions offered only for their own host,
/// and the oldest version it accepts. Skips, saying why, where `openssl`, `stdbuf` or the
/// system's TLS library is missing.
final class TLSClosureRulesTests: StockTLSTestCase {
    /// `client` sends `url` and waits (bounded) for its one answer.
    private func get(_ url: String, on client: HTTPClient? = nil) throws -> Result<HTTPClientResponse, HTTPClientError> {
        try HTTPClientTestCase.executeWithCompletion(HTTPClientRequest(url: try XCTUnwrap(URL(string: url))), on: client ?? self.client)
    }

    /// Starts a GET of `path` on `port` and returns a wait for its one answer (bounded: 20 s).
    private func start(_ port: UInt16, _ path: String) throws -> () throws -> Result<HTTPClientResponse, HTTPClientError> {
        let answers = Recorder<Result<HTTPClientResponse, HTTPClientError>>()
        let done = DispatchSemaphore(value: 0)
        client.execute(HTTPClientRequest(url: try XCTUnwrap(URL(string: "https://localhost:\(port)/\(path)")))) { result in
            answers.append(result)
            done.signal()
        }
        return {
            XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "answered")
            return try XCTUnwrap(answers.values.first)
        }
    }

    private static func body(_ count: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(ascii: "x"), count: count)
    }

    // MARK: Closure (RFC 9112 §9.8)

    /// A chunked body whose last chunk arrived is whole, though a bare FIN ends the connection.
    func testAChunkedBodyCompletesBeforeABareFIN() throws {
        let server = try terminal()
        let answer = try start(server.port, "chunked")
        XCTAssertTrue(server.waitForOutput("GET /chunked HTTP/1.1"))
        try server.type(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n4b0\r\n".utf8)
                        + Self.body(1_200) + Array("\r\n0\r\n\r\n".utf8))
        try server.endInput()
        XCTAssertEqual(try answer().get().body, Self.body(1_200))
    }

    /// A `Content-Length` body cut short by a bare FIN is a lost connection, not a short body.
    func testALengthFramedBodyCutByABareFINFails() throws {
        let server = try terminal()
        let answer = try start(server.port, "short")
        XCTAssertTrue(server.waitForOutput("GET /short HTTP/1.1"))
        try server.type(Array("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n".utf8) + Self.body(1_200))
        try server.endInput()
        let result = try answer()
        guard case .failure(.connectionLost) = result else { return XCTFail("a lost connection expected, got \(result)") }
    }

    /// `close_notify` ends the stream cleanly, but a framed body it cuts short is still cut:
    /// `Content-Length` and chunked alike.
    func testCloseNotifyBeforeAFramedBodyEndsIsAnError() throws {
        let server = try fileServer([
            "length": Array("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n".utf8) + Self.body(1_200),
            "chunked": Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4b0\r\n".utf8) + Self.body(1_200) + Array("\r\n".utf8),
        ])
        for path in ["length", "chunked"] {
            let result = try get("https://localhost:\(server.port)/\(path)")
            guard case .failure(.connectionLost) = result else { return XCTFail("\(path): a lost connection expected, got \(result)") }
        }
    }

    // MARK: Names

    /// `https://bücher.test/` is looked up, sent as SNI and checked as `xn--bcher-kva.test`
    /// (curl converts it so); the percent-encoded spelling of the same name too.
    func testAnInternationalizedHostGoesAsItsALabels() throws {
        let server = try statusServer("idn")
        let lookups = Recorder<String>()
        let resolver = HostResolver(
            literal: { _, _ in nil },
            lookUp: { host, port throws(SocketError) in
                lookups.append(host)
                return try SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true)
            }
        )
        let group = try EventLoopGroup(count: 1, label: "TLSClosureRulesTests.idn")
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client),
                                loops: group, resolver: resolver)
        defer { client.closeIdleConnections() }
        for url in ["https://bücher.test:\(server.port)/", "https://b%C3%BCcher.test:\(server.port)/"] {
            let result = try get(url, on: client)
            guard case .success(let response) = result else { return XCTFail("\(url): \(result)") }
            XCTAssertEqual(response.status, 200, url)
        }
        XCTAssertEqual(lookups.values, ["xn--bcher-kva.test", "xn--bcher-kva.test"])
    }

    /// `https://127.1/` connects to 127.0.0.1 (`getaddrinfo` reads it so) and is verified as that
    /// address, as curl does: the certificate's IP name matches, and no SNI goes out.
    func testAShortIPv4SpellingIsVerifiedAsItsAddress() throws {
        let server = try statusServer("localhost")
        for host in ["127.1", "0x7f.0.0.1"] {
            let result = try get("https://\(host):\(server.port)/")
            guard case .success(let response) = result else { return XCTFail("\(host): \(result)") }
            XCTAssertEqual(response.status, 200, host)
        }
    }

    // MARK: Sessions

    /// The session a connection to `localhost` brought is not offered to `127.0.0.1`, the same
    /// server by another name: its handshake is a new one.
    func testASessionIsOfferedOnlyToItsOwnHost() throws {
        let server = try statusServer("localhost")
        let page = { (url: String) throws -> String in String(decoding: try self.get(url).get().body, as: UTF8.self) }
        XCTAssertTrue(try page("https://localhost:\(server.port)/").contains("New, "))
        XCTAssertTrue(try page("https://127.0.0.1:\(server.port)/").contains("New, "), "another host: no session offered")
        XCTAssertTrue(try page("https://localhost:\(server.port)/").contains("Reused, "), "its own host: resumed")
    }

    // MARK: Versions

    /// TLS 1.2 at least: a server that speaks TLS 1.1 only is refused.
    func testATLS11OnlyServerIsRefused() throws {
        let server = try statusServer("localhost", options: ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"])
        let result = try get("https://localhost:\(server.port)/")
        guard case .failure(.tls(let failure)) = result else { return XCTFail("a TLS failure expected, got \(result)") }
        XCTAssertEqual(failure, .protocolVersionRefused)
    }
}
