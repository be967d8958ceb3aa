import Foundation
import HTTPClient
import TestSupport
import XCTest

/// How a TLS connection ends decides whether a response delimited by that end is whole
/// (RFC 9112 §9.8), and TLS 1.3 post-handshake messages in the middle of an exchange change
/// nothing for it: against OpenSSL's `s_server`, as a terminal the test types the answer into
/// (`OpenSSLTerminalServer`), or serving a file that holds a whole response. Skips, saying why,
/// where `openssl`, `stdbuf` or the system's TLS library is missing.
final class TLSClosureTests: StockTLSTestCase {
    /// A body of `count` bytes the server's commands never read as one (no `k`, `K`, `q`, `Q`, ...).
    private static func body(_ count: Int, _ letter: Character = "x") -> [UInt8] {
        [UInt8](repeating: UInt8(ascii: letter.unicodeScalars.first ?? "x"), count: count)
    }

    /// Starts `request` and returns a wait for its one answer (bounded: 20 s).
    private func start(_ request: HTTPClientRequest) -> () throws -> Result<HTTPClientResponse, HTTPClientError> {
        let answers = Recorder<Result<HTTPClientResponse, HTTPClientError>>()
        let done = DispatchSemaphore(value: 0)
        client.execute(request) { result in
            answers.append(result)
            done.signal()
        }
        return {
            XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "answered")
            return try XCTUnwrap(answers.values.first)
        }
    }

    /// A result in a line: the status and body size, or the error.
    private static func summary(_ result: Result<HTTPClientResponse, HTTPClientError>) -> String {
        switch result {
        case .success(let response): "status \(response.status), \(response.body.count) body bytes"
        case .failure(let error): "\(error)"
        }
    }

    private func url(_ port: UInt16, _ path: String) throws -> URL {
        try XCTUnwrap(URL(string: "https://localhost:\(port)/\(path)"))
    }

    /// The server sends the head and 1,200 bytes of a body delimited by the connection's end,
    /// then its connection ends without `close_notify` (its input ended: it closes the socket
    /// and exits): a bare FIN, which may be anyone's cut.
    func testACloseDelimitedBodyCutWithoutCloseNotifyFails() throws {
        let server = try terminal()
        let answer = start(HTTPClientRequest(url: try url(server.port, "cut")))
        XCTAssertTrue(server.waitForOutput("GET /cut HTTP/1.1"), "the request arrived")
        try server.type(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + Self.body(1_200))
        try server.endInput()
        let result = try answer()
        guard case .failure(.uncleanShutdown(let received)) = result else { return XCTFail("expected an unclean shutdown, got \(Self.summary(result))") }
        XCTAssertEqual(received, 1_200)
    }

    /// The same cut by killing the server (SIGKILL) once 1,200 bytes of a download are in its file.
    func testAServerKilledInsideACloseDelimitedDownloadFailsIt() throws {
        let server = try terminal()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("TLSClosureTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var request = HTTPClientRequest(url: try url(server.port, "download"))
        request.downloadFile = file
        let answer = start(request)
        XCTAssertTrue(server.waitForOutput("GET /download HTTP/1.1"), "the request arrived")
        try server.type(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + Self.body(1_200))
        XCTAssertTrue(waitUntil(timeout: 10) {
            ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) == 1_200
        }, "the client wrote what the server sent")
        server.kill()
        let result = try answer()
        guard case .failure(.uncleanShutdown(let received)) = result else { return XCTFail("expected an unclean shutdown, got \(Self.summary(result))") }
        XCTAssertEqual(received, 1_200)
    }

    /// `s_server -HTTP` sends a file holding a whole response (no `Content-Length`), then its
    /// `close_notify`: the body is whole.
    func testACloseDelimitedBodyEndedByCloseNotifyCompletes() throws {
        let body = Self.body(5_000, "p")
        let server = try fileServer(["page": Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + body])
        let response = try start(HTTPClientRequest(url: try url(server.port, "page")))().get()
        XCTAssertEqual(response.status, 200)
        XCTAssertNil(response.head.headers["Content-Length"])
        XCTAssertEqual(response.body, body)
    }

    /// A body framed by its length completes by its framing, however the connection ends after it.
    func testALengthFramedBodyCompletesBeforeABareFIN() throws {
        let server = try terminal()
        let answer = start(HTTPClientRequest(url: try url(server.port, "framed")))
        XCTAssertTrue(server.waitForOutput("GET /framed HTTP/1.1"))
        try server.type(Array("HTTP/1.1 200 OK\r\nContent-Length: 1200\r\nConnection: close\r\n\r\n".utf8) + Self.body(1_200))
        try server.endInput()
        XCTAssertEqual(try answer().get().body, Self.body(1_200))
    }

    /// KeyUpdates in the middle of a response and while the connection waits in the pool (one
    /// asking the client to update its keys too, which it does with its next write), and a second
    /// request on the same connection: both complete.
    func testKeyUpdatesMidResponseChangeNothing() throws {
        let server = try terminal()
        let parts = [Self.body(2_000, "a"), Self.body(2_000, "b"), Self.body(2_000, "c")]
        let progress = Recorder<Double>()
        var request = HTTPClientRequest(url: try url(server.port, "first"))
        request.downloadProgress = { progress.append($0) }
        let first = start(request)
        XCTAssertTrue(server.waitForOutput("GET /first HTTP/1.1"))
        try server.type(Array("HTTP/1.1 200 OK\r\nContent-Length: 6000\r\n\r\n".utf8) + parts[0])
        // Each piece is typed once the one before was taken: the client has it, or the server said so.
        XCTAssertTrue(waitUntil(timeout: 10) { (progress.values.last ?? 0) >= 2_000.0 / 6_000 }, "the first part arrived")
        XCTAssertTrue(try server.keyUpdate(requestingPeerUpdate: false), "the server updated its keys")
        try server.type(parts[1])
        XCTAssertTrue(waitUntil(timeout: 10) { (progress.values.last ?? 0) >= 4_000.0 / 6_000 }, "the second part arrived under the new keys")
        XCTAssertTrue(try server.keyUpdate(requestingPeerUpdate: true), "the server updated its keys and asked the client to")
        try server.type(parts[2])
        let response = try first().get()
        XCTAssertEqual(response.body, parts.flatMap { $0 })

        // Another, asking for the client's, while the connection is idle: it stays pooled, and the
        // client's next write carries its own KeyUpdate first.
        XCTAssertTrue(try server.keyUpdate(requestingPeerUpdate: true), "the server updated its keys while the client idled")
        let second = start(HTTPClientRequest(url: try url(server.port, "second")))
        // `s_server` serves one connection at a time: the request arrives only on the kept-alive one.
        XCTAssertTrue(server.waitForOutput("GET /second HTTP/1.1"), "the second request arrived on the kept-alive connection")
        try server.type(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
        XCTAssertEqual(try second().get().body, Array("ok".utf8))
        XCTAssertEqual(server.outputCount(of: "CIPHER is"), 1, "one handshake: one connection served both")
    }
}
