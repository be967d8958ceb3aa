import EventLoopIO
import FeedServer
import Foundation
import HTTPWire
import TestSupport
import XCTest

/// `FeedServer` serving TLS with the fixture `localhost`, met by a raw TLS client that sees how
/// each connection ends: `close_notify` when the server closes, none when a fault route cuts.
final class FeedServerTLSTests: FeedServerTestCase {
    private var tlsClients: [RawTLSClient] = []

    override func setUpWithError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
    }

    override func tearDown() {
        tlsClients.forEach { $0.close() }
        tlsClients = []
        super.tearDown()
    }

    private func makeTLSServer(_ configuration: FeedServer.Configuration = .init()) throws -> FeedServer {
        var configuration = configuration
        configuration.tls = TLSFixtures.server()
        return try makeServer(configuration)
    }

    private func connectTLS(_ server: FeedServer, session: TLSSession? = nil) throws -> RawTLSClient {
        let client = try RawTLSClient(port: server.port, session: session)
        tlsClients.append(client)
        return client
    }

    func testTheBaseURLIsHTTPSAtLocalhostWithTLSAndUnchangedWithout() throws {
        let secure = try makeTLSServer()
        XCTAssertEqual(secure.baseURL.absoluteString, "https://localhost:\(secure.port)/")
        XCTAssertEqual(secure.imageURL(named: "1_m.jpg"), "https://localhost:\(secure.port)/images/1_m.jpg")
        let plain = try makeServer()
        XCTAssertEqual(plain.baseURL.absoluteString, "http://127.0.0.1:\(plain.port)/")
        XCTAssertEqual(plain.imageURL(named: "1_m.jpg"), "http://127.0.0.1:\(plain.port)/images/1_m.jpg")
    }

    /// The feed's links and pictures point at the server as clients reach it: over https.
    func testTheFeedLinksToTheServerOverHTTPS() throws {
        let server = try makeTLSServer(.init(itemsPerPage: 2))
        let client = try connectTLS(server)
        try client.request("/services/feeds/photos_public.gne?format=json&nojsoncallback=1")
        let feed = try json(try client.response())
        let items = try XCTUnwrap(feed["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 2)
        for item in items {
            XCTAssertTrue((item["link"] as? String)?.hasPrefix("https://localhost:\(server.port)/photos/") ?? false, "\(item)")
            XCTAssertTrue(((item["media"] as? [String: String])?["m"])?.hasPrefix("https://localhost:\(server.port)/images/") ?? false, "\(item)")
        }
    }

    func testAnAnswerThatEndsTheConnectionEndsWithCloseNotify() throws {
        let server = try makeTLSServer()
        let client = try connectTLS(server)
        XCTAssertEqual(client.handshake?.applicationProtocol, "http/1.1")
        try client.request("/echo?n=1", close: true)
        let response = try client.response()
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(try json(response)["query"] as? String, "n=1")
        XCTAssertEqual(try client.readUntilEnd(), [])
        XCTAssertEqual(client.closure, .clean)
        XCTAssertEqual(server.tlsHandshakeCount, 1)
        XCTAssertTrue(waitUntil(timeout: 5) { server.openConnectionCount == 0 })
    }

    func testKeptAliveRequestsShareOneHandshake() throws {
        let server = try makeTLSServer()
        let client = try connectTLS(server)
        for index in 0..<5 {
            try client.request("/echo?n=\(index)")
            XCTAssertEqual(try json(try client.response())["query"] as? String, "n=\(index)")
        }
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(server.tlsHandshakeCount, 1)
    }

    /// `stop()` ends an idle kept-alive connection with `close_notify`.
    func testStoppingEndsAnIdleConnectionWithCloseNotify() throws {
        let server = try makeTLSServer()
        let client = try connectTLS(server)
        try client.request("/echo")
        XCTAssertEqual(try client.response().head.status, 200)
        server.stop()
        XCTAssertEqual(try client.readUntilEnd(), [])
        XCTAssertEqual(client.closure, .clean)
    }

    /// `/half` cuts after the head, in the body: no `close_notify`.
    func testHalfCutsTheConnectionWithoutCloseNotify() throws {
        let server = try makeTLSServer()
        let client = try connectTLS(server)
        try client.request("/half")
        let received = try client.readUntilEnd()
        XCTAssertEqual(client.closure, .truncated)
        let text = String(decoding: received, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\n" + String(repeating: "h", count: 500)), "the head and 500 of the 1000 bytes it announces")
    }

    /// `/until-close/{n}` sends a body delimited by the connection's end, then `close_notify`
    /// (what lets a client take the body as whole, RFC 9112 §9.8); `/until-close/{n}/{sent}` cuts
    /// it after `sent` bytes without one.
    func testACloseDelimitedBodyEndsWithCloseNotifyUnlessCut() throws {
        let server = try makeTLSServer()
        let whole = try connectTLS(server)
        try whole.request("/until-close/3000")
        let text = String(decoding: try whole.readUntilEnd(), as: UTF8.self)
        XCTAssertEqual(whole.closure, .clean)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertFalse(text.lowercased().contains("content-length"), "delimited by the close")
        XCTAssertTrue(text.hasSuffix("\r\n\r\n" + String(repeating: "u", count: 3000)))

        let cut = try connectTLS(server)
        try cut.request("/until-close/3000/1200")
        let cutText = String(decoding: try cut.readUntilEnd(), as: UTF8.self)
        XCTAssertEqual(cut.closure, .truncated)
        XCTAssertTrue(cutText.hasSuffix("\r\n\r\n" + String(repeating: "u", count: 1200)), cutText)
    }

    /// `/cut-record` ends inside its last record: the records before it arrive whole, the cut one
    /// not at all, and no `close_notify` follows.
    func testCutRecordEndsInsideTheLastRecord() throws {
        let server = try makeTLSServer()
        let client = try connectTLS(server)
        try client.request("/cut-record")
        let received = try client.readUntilEnd()
        XCTAssertEqual(client.closure, .truncated)
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try parser.feed(received))
        XCTAssertEqual(parser.head?.headers["Content-Length"], "32768")
        // Head and body make three records (16 KiB, 16 KiB, the rest): the first two arrived.
        XCTAssertEqual(received.count, 2 * 16_384)
        XCTAssertThrowsError(try parser.finishAtEndOfStream())
    }

    func testResumedHandshakesAreCounted() throws {
        let server = try makeTLSServer()
        let first = try connectTLS(server)
        try first.request("/echo", close: true)
        XCTAssertEqual(try first.response().head.status, 200)
        _ = try first.readUntilEnd()
        let session = try XCTUnwrap(first.session, "the server gave a resumable session")
        let second = try connectTLS(server, session: session)
        XCTAssertEqual(second.handshake?.resumedSession, true)
        try second.request("/echo")
        XCTAssertEqual(try second.response().head.status, 200)
        XCTAssertEqual(server.tlsHandshakeCount, 2)
        XCTAssertEqual(server.resumedTLSHandshakeCount, 1)
    }

    /// Plain HTTP to the TLS port is a failed handshake: the connection ends, nothing is routed
    /// or counted, and no HTTP answer comes back.
    func testPlainHTTPToTheTLSServerEndsTheConnectionUnanswered() throws {
        let server = try makeTLSServer()
        let client = try connect(server)
        try client.request("GET", "/echo")
        let answer = try client.readUntilClose()
        XCTAssertFalse(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/"), "an alert at most: \(answer)")
        XCTAssertTrue(waitUntil(timeout: 5) { server.openConnectionCount == 0 })
        XCTAssertEqual(server.requestCount, 0)
        XCTAssertEqual(server.tlsHandshakeCount, 0)
    }

    /// A connection beyond `maxConnections` cannot be answered 503 before a handshake: it is closed.
    func testAConnectionBeyondTheLimitIsClosedWithoutAnAnswer() throws {
        let server = try makeTLSServer(.init(maxConnections: 1))
        let first = try connectTLS(server)
        try first.request("/echo")
        XCTAssertEqual(try first.response().head.status, 200)
        let refused = try connect(server)
        XCTAssertEqual(try refused.readUntilClose(), [])
        XCTAssertEqual(server.connectionCount, 2)
    }

    func testACertificateAndAKeyThatDoNotMatchAreRefusedAtStart() throws {
        var configuration = FeedServer.Configuration()
        configuration.tls = TLSServerConfiguration(certificateChain: .pemFile(TLSFixtures.path("localhost.pem")),
                                                   privateKey: .pemFile(TLSFixtures.path("other-name.key")))
        XCTAssertThrowsError(try FeedServer(configuration: configuration)) { error in
            XCTAssertEqual(error as? TLSFailure, .invalidConfiguration(.privateKeyMismatch))
        }
    }
}
