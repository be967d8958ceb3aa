import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import HTTPWire
import EventLoopIO
@testable import Networking
import TestSupport
import XCTest

/// `SocketTransport` failures as typed kinds, with the system error and words a person can read,
/// produced for real on loopback; `urlError` still gives URLSession's code for each.
final class TransportErrorTests: SocketTransportTestCase {
    private func transportError(_ result: Result<Response, ProviderError>, file: StaticString = #filePath,
                                line: UInt = #line) throws -> TransportError {
        let error = try failure(result, file: file, line: line)
        guard case .underlying(let root, _) = error, let kind = root as? TransportError else {
            XCTFail("not a TransportError: \(error)", file: file, line: line)
            throw TestError(2)
        }
        return kind
    }

    func testARefusedPortIsCannotConnectWithItsErrno() throws {
        let port = server.port
        server.stop()
        let kind = try transportError(try send(URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!)).1)
        XCTAssertEqual(kind, .cannotConnect(host: "127.0.0.1", port: Int(port), errno: ECONNREFUSED))
        XCTAssertEqual(kind.localizedDescription, "could not connect to 127.0.0.1:\(port) (connection refused)")
        XCTAssertEqual((kind as any Error).urlError?.code, .cannotConnectToHost)
        XCTAssertTrue((kind as any Error).isNotConnection)
    }

    func testAnIdleTimeoutSaysHowLongAndForWhom() throws {
        transport = SocketTransport(configuration: .init(idleTimeout: .milliseconds(300)))
        let kind = try transportError(try get("hang"))
        XCTAssertEqual(kind, .timedOut(.idle, after: .milliseconds(300), endpoint: "127.0.0.1:\(server.port)"))
        XCTAssertEqual(kind.localizedDescription, "timed out after 300 ms waiting for 127.0.0.1:\(server.port)")
        XCTAssertTrue((kind as any Error).isTimeout)
        XCTAssertEqual((kind as any Error).urlError?.code, .timedOut)
    }

    func testTheOverallDeadlineIsItsOwnPhase() throws {
        transport = SocketTransport(configuration: .init(idleTimeout: .seconds(5), overallDeadline: .seconds(1)))
        let kind = try transportError(try get("drip?interval=200&count=20"))
        XCTAssertEqual(kind, .timedOut(.overall, after: .seconds(1), endpoint: "127.0.0.1:\(server.port)"))
        XCTAssertEqual(kind.localizedDescription, "timed out after 1 s the whole exchange with 127.0.0.1:\(server.port)")
    }

    /// A listener that never accepts, with its one-entry backlog taken: the next SYN goes
    /// unanswered, so the connect phase times out.
    func testAConnectTimeoutIsTheConnectPhase() throws {
        let listener = try TCPSocket.listen(host: "127.0.0.1", port: 0, backlog: 0)
        defer { listener.close() }
        let port = try listener.localPort()
        var fillers: [TCPSocket] = []
        defer { fillers.forEach { $0.close() } }
        for _ in 0..<4 {
            guard let filler = try? TCPSocket.connect(host: "127.0.0.1", port: port, timeout: .milliseconds(200)) else { break }
            fillers.append(filler)
        }
        guard fillers.count < 4 else { throw XCTSkip("this kernel accepts every connection into the backlog") }
        transport = SocketTransport(configuration: .init(connectTimeout: .milliseconds(300)))
        let kind = try transportError(try send(URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!)).1)
        XCTAssertEqual(kind, .timedOut(.connect, after: .milliseconds(300), endpoint: "127.0.0.1:\(port)"))
        XCTAssertEqual(kind.localizedDescription, "timed out after 300 ms connecting to 127.0.0.1:\(port)")
    }

    func testAResetIsConnectionLostWithECONNRESET() throws {
        let kind = try transportError(try get("reset"))
        XCTAssertEqual(kind, .connectionLost(errno: ECONNRESET))
        XCTAssertEqual(kind.localizedDescription, "the connection was lost (connection reset by peer)")
        XCTAssertEqual((kind as any Error).urlError?.code, .networkConnectionLost)
    }

    func testGarbageIsABadResponseCarryingTheWireError() throws {
        let kind = try transportError(try get("garbage"))
        guard case .badResponse(let wire) = kind else { return XCTFail("\(kind)") }
        XCTAssertEqual(kind.localizedDescription, "bad response: \(wire)")
        XCTAssertEqual((kind as any Error).urlError?.code, .badServerResponse)
    }

    func testLimitsAreDescribed() {
        XCTAssertEqual(TransportError.responseTooLarge(limit: 50 * 1_048_576).localizedDescription, "response larger than 50 MB")
        XCTAssertEqual(TransportError.tooManyRedirects(11).localizedDescription, "too many redirects (11)")
        XCTAssertEqual(TransportError.timedOut(.idle, after: .seconds(3), endpoint: "127.0.0.1:8080").localizedDescription,
                       "timed out after 3 s waiting for 127.0.0.1:8080")
        XCTAssertEqual(TransportError.cancelled.urlErrorCode, .cancelled)
    }

    /// The one conversion from a parser's error: real bytes cut inside the head and inside the
    /// body, a body over its limit and garbage, each parsed, then converted and classified.
    func testAParsersErrorBecomesOneKindInOnePlace() {
        func parse(_ text: String, atEnd: Bool, limit: Int = 1 << 20) -> HTTPWireError? {
            var parser = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: limit)
            do throws(HTTPWireError) {
                _ = try parser.feed(Array(text.utf8)[...])
                if atEnd { _ = try parser.finishAtEndOfStream() }
                return nil
            } catch {
                return error
            }
        }
        let cases: [(String, HTTPWireError?, TransportError)] = [
            ("cut inside the head", parse("HTTP/1.1 200 OK\r\nContent-Le", atEnd: true), .connectionLost(errno: nil)),
            ("cut inside the body", parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", atEnd: true), .connectionLost(errno: nil)),
            ("over the limit", parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", atEnd: false, limit: 4),
             .responseTooLarge(limit: 4)),
        ]
        for (name, wire, expected) in cases {
            guard let wire else { XCTFail("\(name): the parser took it"); continue }
            XCTAssertEqual(HTTPClientError(wire).transportFailure as? TransportError, expected, name)
        }
        XCTAssertTrue(HTTPClientError(.truncatedHead(received: 3)).transportFailure.isLostConnection)
        guard let garbage = parse("SSH-2.0-OpenSSH\r\n\r\n", atEnd: false) else { return XCTFail("the parser took garbage") }
        XCTAssertEqual(HTTPClientError(garbage).transportFailure as? TransportError, .badResponse(garbage))
        XCTAssertEqual(HTTPClientError(garbage).transportFailure.urlError?.code, .badServerResponse)
    }

    func testTheDefaultRedirectLimitIsURLSessions() throws {
        XCTAssertEqual(SocketTransport.Configuration().maximumRedirects, 20)
        let scripted = try ScriptedHTTPServer { _, request, _ in
            .respond(Array("HTTP/1.1 302 Found\r\nLocation: /r\(request)\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { scripted.stop() }
        let kind = try transportError(try send(URLRequest(url: scripted.url("/start"))).1)
        XCTAssertEqual(kind, .tooManyRedirects(21))
        XCTAssertEqual(scripted.requests.count, 21)
    }
}
