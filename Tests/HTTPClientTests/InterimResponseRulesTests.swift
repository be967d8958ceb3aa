import Foundation
import HTTPClient
import HTTPWire
import EventLoopIO
import TestSupport
import XCTest

/// The client against a server's interim and early answers, over real sockets: 1xx responses
/// before the final one (RFC 9110 §15.2), responses without a body (§6.4.1, RFC 9112 §6.3), a
/// caller's `Expect: 100-continue` (§10.1.1; the client itself sends none), a final answer while
/// the body is still going out, the one retry of an idempotent request on a kept-alive connection
/// (§9.2.2, RFC 9112 §9.3.1) and which connections are kept (RFC 9112 §9.3, §9.6).
final class InterimResponseRulesTests: ScriptedServerTestCase {

    /// A request a server received and the connection (numbered from 1) it came on.
    private struct Received: Sendable, Equatable {
        let connection: Int
        let method: String
        let target: String
    }

    /// A server that logs each request and answers `/second` with `second`, anything else as `reply` says.
    private func server(onAccept accept: ScriptedHTTPServer.Accept = .serve, log: Recorder<Received>,
                        reply: @escaping @Sendable (_ connection: Int, _ request: Int, _ head: HTTPRequestHead) -> ScriptedHTTPServer.Reply) throws -> ScriptedHTTPServer {
        let server = try ScriptedHTTPServer(onAccept: accept) { connection, number, head in
            log.append(Received(connection: connection, method: head.method, target: head.target))
            return head.target == "/second" ? .respond(Self.second) : reply(connection, number, head)
        }
        return keep(server)
    }

    /// Sends `GET /second` to `server` and says whether it went on connection `connection`.
    private func secondRequestReuses(_ server: ScriptedHTTPServer, log: Recorder<Received>, connection: Int = 1,
                                     file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let next = try execute(HTTPClientRequest(url: server.url("/second")))
        XCTAssertEqual(try next.get().body, Array("second".utf8), "the second request got its own answer", file: file, line: line)
        return log.values.last?.connection == connection
    }

    // MARK: Interim responses (RFC 9110 §15.2)

    /// Any number of 1xx responses, of any code but 101, with fields (a `Content-Length` among
    /// them, which frames nothing) and without an `Expect` sent, are skipped; the final response
    /// is delivered and its connection reused.
    func testAnyNumberOfInterimResponsesAreSkipped() throws {
        let interim = "HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 102 Processing\r\n\r\n"
            + "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nLink: </b.js>; rel=preload\r\n\r\n"
            + "HTTP/1.1 103 Early Hints\r\nLink: </c.css>; rel=preload\r\n\r\n"
            + "HTTP/1.1 199 Unknown\r\nContent-Length: 5\r\n\r\n"
            + String(repeating: "HTTP/1.1 102 Processing\r\nX-Step: n\r\n\r\n", count: 200)
        let log = Recorder<Received>()
        let server = try server(log: log) { _, _, _ in
            .respond(Array((interim + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal").utf8))
        }
        let response = try execute(HTTPClientRequest(url: server.url("/first"))).get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Array("final".utf8))
        XCTAssertNil(response.head.headers["Link"], "an interim response's fields are not the final one's")
        XCTAssertNil(response.head.headers["X-Step"])
        XCTAssertTrue(try secondRequestReuses(server, log: log), "the connection after the final response is reused")
    }

    /// Interim responses that come slowly, each within the idle timeout, keep the exchange going
    /// past it (bytes move); a 1xx then silence times out as idle: a 1xx never ends the exchange.
    func testInterimResponsesNeitherEndTheExchangeNorItsIdleTimeout() throws {
        let log = Recorder<Received>()
        let processing = Array("HTTP/1.1 102 Processing\r\n\r\n".utf8)
        let server = try server(log: log) { _, _, head in
            if head.target == "/silent" { return .respondAndHold(processing) }
            return .respondInPieces(Array(repeating: processing, count: 6) + [Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone".utf8)],
                                    interval: .milliseconds(200))
        }
        var slow = HTTPClientRequest(url: server.url("/slow"))
        slow.idleTimeout = .milliseconds(600)
        let response = try execute(slow).get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Array("done".utf8))

        var silent = HTTPClientRequest(url: server.url("/silent"))
        silent.idleTimeout = .milliseconds(300)
        guard case .failure(.timedOut(.idle, _, _, _)) = try execute(silent) else {
            return XCTFail("a 1xx followed by silence did not time out as idle")
        }
    }

    /// A 101 to a request that asked for no upgrade is no response with a body: the bytes after
    /// it (another protocol's) are neither its body nor the next response, and the connection is
    /// never reused.
    func testA101WithoutAnUpgradeAskedIsNotAResponseWithABody() throws {
        let log = Recorder<Received>()
        let server = try server(log: log) { _, _, _ in
            .respond(Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
                     + [0x81, 0x05] + Array("hello".utf8) + Self.second)
        }
        switch try execute(HTTPClientRequest(url: server.url("/first"))) {
        case .success(let response):
            XCTAssertEqual(response.status, 101)
            XCTAssertTrue(response.body.isEmpty, "the other protocol's bytes were taken as a body")
        case .failure:
            break
        }
        XCTAssertFalse(try secondRequestReuses(server, log: log), "the switched connection was reused")
    }

    // MARK: Responses without a body (RFC 9110 §6.4.1, RFC 9112 §6.3)

    /// A response to HEAD (with a `Content-Length` or `Transfer-Encoding: chunked`), a 204 and a
    /// 304 (whatever framing fields they carry) end with their head: the connection serves the
    /// next request.
    func testResponsesWithoutABodyLeaveTheConnectionReusable() throws {
        let cases: [(method: String, answer: String)] = [
            ("HEAD", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
            ("HEAD", "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\n"),
            ("HEAD", "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n"),
            ("GET", "HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n"),
            ("GET", "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n"),
            ("GET", "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n"),
            ("POST", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"),
        ]
        for (method, answer) in cases {
            let log = Recorder<Received>()
            let server = try server(log: log) { _, _, _ in .respond(Array(answer.utf8)) }
            let body: HTTPClientRequest.Body? = method == "POST" ? .bytes(Data("sent".utf8)) : nil
            let response = try execute(HTTPClientRequest(url: server.url("/first"), method: method, body: body)).get()
            XCTAssertTrue(response.body.isEmpty, "\(method) \(answer.debugDescription)")
            XCTAssertTrue(try secondRequestReuses(server, log: log), "\(method) \(answer.debugDescription): not reused")
        }
    }

    /// The same through `stream(_:)` and a download file: the body of a response without one
    /// ends at once (empty, the file empty), a final response after 1xx ones streams its own
    /// body, and the connection serves the next request.
    func testStreamedAndDownloadedResponsesWithoutABodyEndAtTheirHead() async throws {
        let cases: [(method: String, answer: String, body: String)] = [
            ("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", ""),
            ("HEAD", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", ""),
            ("GET", "HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n", ""),
            ("GET", "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", ""),
            ("GET", "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal", "final"),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, (method, answer, body)) in cases.enumerated() {
            let label = "\(method) \(answer.debugDescription)"
            let log = Recorder<Received>()
            let server = try server(log: log) { _, _, _ in .respond(Array(answer.utf8)) }
            let streamed = try await client.stream(HTTPClientRequest(url: server.url("/first"), method: method))
            XCTAssertNil(streamed.head.headers["Link"], label)
            let streamedBody = try await streamed.body.reduce(into: [UInt8]()) { $0 += $1 }
            XCTAssertEqual(streamedBody, Array(body.utf8), label)
            var download = HTTPClientRequest(url: server.url("/first"), method: method)
            download.downloadFile = folder.appendingPathComponent("\(index)")
            let downloaded = try await client.execute(download)
            let written = downloaded.fileURL.flatMap { try? Data(contentsOf: $0) } ?? Data()
            XCTAssertEqual(Array(written), Array(body.utf8), label)
            let next = try await client.execute(HTTPClientRequest(url: server.url("/second")))
            XCTAssertEqual(next.body, Array("second".utf8))
            XCTAssertEqual(log.values.map(\.connection), [1, 1, 1], "\(label): not reused")
        }
    }

    // MARK: A caller's Expect: 100-continue (RFC 9110 §10.1.1)

    /// The client sends no `Expect` of its own; a caller's `Expect: 100-continue` goes out as it is
    /// and the body follows at once (a client may send it without waiting): a server that answers
    /// 100 first, one that never does, and one that refuses the expectation with 417 after
    /// reading the body all answer, and the connection is reused.
    func testACallersExpectContinueNeverMakesTheClientWait() throws {
        let answers = [
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 417 Expectation Failed\r\nContent-Length: 2\r\n\r\nno",
        ]
        for answer in answers {
            let log = Recorder<Received>()
            let server = try server(log: log) { _, _, _ in .respond(Array(answer.utf8)) }
            var request = HTTPClientRequest(url: server.url("/first"), method: "POST", body: .bytes(Data("payload".utf8)))
            request.headers.add(name: "Expect", value: "100-continue")
            request.idleTimeout = .seconds(3)
            let response = try execute(request).get()
            XCTAssertEqual(response.body.count, 2, answer)
            XCTAssertEqual(server.requests.first?.body, Array("payload".utf8), "the body went out")
            XCTAssertTrue(try secondRequestReuses(server, log: log), "\(answer.debugDescription): not reused")
        }
    }

    // MARK: An early answer (RFC 9110 §10.1.1, RFC 9112 §9.6)

    /// A final answer sent after the head, before the body is read (a 413, a 401, a 417), is
    /// delivered whether the server then closes or holds the connection unread, for a body in
    /// memory, streamed, or an async sequence that has not ended; the connection is not reused.
    func testAnAnswerBeforeTheBodyIsReadIsDelivered() throws {
        let payload = Data(repeating: 0x61, count: 8 * 1_048_576)
        let answers: [(status: Int, close: Bool)] = [(413, true), (413, false), (401, false), (417, true)]
        for (status, close) in answers {
            for kind in ["in memory", "streamed", "unended chunks"] {
                let log = Recorder<Received>()
                let answer = Array("HTTP/1.1 \(status) Refused\r\nContent-Length: 4\r\n\r\nnope".utf8)
                let server = try server(onAccept: .answerHead, log: log) { _, _, _ in
                    close ? .respondAndClose(answer) : .respondAndHold(answer)
                }
                let (chunks, more) = AsyncStream.makeStream(of: [UInt8].self)
                more.yield(Array(repeating: 0x61, count: 65_536))
                defer { more.finish() }
                let body: HTTPClientRequest.Body = switch kind {
                case "streamed": .stream({ InputStream(data: payload) }, length: Int64(payload.count))
                case "unended chunks": .chunks(chunks)
                default: .bytes(payload)
                }
                var request = HTTPClientRequest(url: server.url("/upload"), method: "PUT", body: body)
                request.idleTimeout = .seconds(3)
                let label = "\(status), \(close ? "closed" : "held"), \(kind)"
                let response = try execute(request)
                XCTAssertEqual(try response.get().status, status, label)
                XCTAssertEqual(try response.get().body, Array("nope".utf8), label)
                XCTAssertEqual(client.idleConnectionCount, 0, "\(label): the connection was pooled")
            }
        }
    }

    // MARK: Retry (RFC 9110 §9.2.2, RFC 9112 §9.3.1)

    /// On a kept-alive connection the server closes after reading the request, without a byte of
    /// answer: an idempotent method is sent once more on a new connection; POST and PATCH are not.
    func testOnlyIdempotentRequestsAreRetriedOnAConnectionClosedBeforeTheAnswer() throws {
        let methods: [(method: String, retried: Bool)] = [
            ("GET", true), ("HEAD", true), ("PUT", true), ("DELETE", true), ("OPTIONS", true), ("TRACE", true),
            ("POST", false), ("PATCH", false),
        ]
        for (method, retried) in methods {
            client.closeIdleConnections()
            let log = Recorder<Received>()
            let server = try server(log: log) { connection, number, _ in
                connection == 1 && number == 2 ? .close : .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
            }
            XCTAssertEqual(try execute(HTTPClientRequest(url: server.url("/warm"))).get().status, 200)
            XCTAssertTrue(waitUntil { self.client.idleConnectionCount == 1 }, "the first connection is pooled")
            let body: HTTPClientRequest.Body? = ["PUT", "POST", "PATCH"].contains(method) ? .bytes(Data("x".utf8)) : nil
            let outcome = try execute(HTTPClientRequest(url: server.url("/again"), method: method, body: body))
            let sent = log.values.filter { $0.target == "/again" }
            if retried {
                XCTAssertEqual(try outcome.get().status, 200, method)
                XCTAssertEqual(sent.map(\.connection), [1, 2], "\(method): sent once more, on a new connection")
            } else {
                guard case .failure(.connectionLost) = outcome else { return XCTFail("\(method): \(outcome)") }
                XCTAssertEqual(sent.map(\.connection), [1], "\(method) was sent twice")
            }
        }
    }

    /// A request that got part of an answer (a 1xx, part of a head, part of a body) before the
    /// close is never sent again, nor is one whose connection was new; and the retry is once only.
    func testARequestIsRetriedAtMostOnceAndNeverAfterPartOfAnAnswer() throws {
        let partial = ["HTTP/1.1 102 Processing\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Le", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc"]
        for answer in partial {
            client.closeIdleConnections()
            let log = Recorder<Received>()
            let server = try server(log: log) { connection, number, _ in
                connection == 1 && number == 2 ? .respondAndClose(Array(answer.utf8))
                    : .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
            }
            XCTAssertEqual(try execute(HTTPClientRequest(url: server.url("/warm"))).get().status, 200)
            XCTAssertTrue(waitUntil { self.client.idleConnectionCount == 1 })
            let outcome = try execute(HTTPClientRequest(url: server.url("/again")))
            guard case .failure(.connectionLost) = outcome else { return XCTFail("\(answer.debugDescription): \(outcome)") }
            XCTAssertEqual(log.values.filter { $0.target == "/again" }.count, 1, "\(answer.debugDescription): sent again")
        }

        let fresh = Recorder<Received>()
        let closing = try server(log: fresh) { _, _, _ in .close }
        guard case .failure(.connectionLost) = try execute(HTTPClientRequest(url: closing.url("/fresh"))) else {
            return XCTFail("a new connection closed before the answer did not fail")
        }
        XCTAssertEqual(fresh.count, 1, "a request on a new connection was sent again")

        client.closeIdleConnections()
        let twice = Recorder<Received>()
        let alwaysClosing = try server(log: twice) { connection, number, _ in
            connection == 1 && number == 1 ? .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)) : .close
        }
        XCTAssertEqual(try execute(HTTPClientRequest(url: alwaysClosing.url("/warm"))).get().status, 200)
        XCTAssertTrue(waitUntil { self.client.idleConnectionCount == 1 })
        guard case .failure(.connectionLost) = try execute(HTTPClientRequest(url: alwaysClosing.url("/again"))) else {
            return XCTFail("the retry's close did not fail the request")
        }
        XCTAssertEqual(twice.values.filter { $0.target == "/again" }.map(\.connection), [1, 2], "retried once only")
    }

    // MARK: Persistence (RFC 9112 §9.3, §9.6)

    /// A caller's `Connection: close` (in any case, in a list, or in a second `Connection` field
    /// line, the lines making one list: RFC 9110 §5.3) means no further request on that connection
    /// (RFC 9112 §9.6), even when the server keeps it open.
    func testACallersConnectionCloseIsNeverReused() throws {
        let fields: [[(String, String)]] = [
            [("Connection", "close")],
            [("connection", "Keep-Alive, CLOSE")],
            [("Connection", "keep-alive"), ("Connection", "close")],
        ]
        for lines in fields {
            let log = Recorder<Received>()
            let server = try server(log: log) { _, _, _ in .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)) }
            var request = HTTPClientRequest(url: server.url("/first"))
            for (name, value) in lines { request.headers.add(name: name, value: value) }
            XCTAssertEqual(try execute(request).get().body, Array("ok".utf8))
            XCTAssertFalse(try secondRequestReuses(server, log: log), "\(lines): the connection was reused")
        }
    }

    /// A response's `Connection: close` in a field name of any case, or in its second field line,
    /// and an HTTP/1.0 response's `Keep-Alive` in any case, decide as they would in one line.
    func testAResponsesConnectionOptionsAreReadAcrossLinesAndCases() throws {
        let cases: [(head: String, reusable: Bool)] = [
            ("HTTP/1.1 200 OK\r\nconnection: close", false),
            ("HTTP/1.1 200 OK\r\nCONNECTION: keep-alive\r\nConnection: Close", false),
            ("HTTP/1.0 200 OK\r\nConnection: Keep-Alive", true),
            ("HTTP/1.0 200 OK\r\nConnection: x-custom\r\nConnection: keep-alive", true),
        ]
        for (head, reusable) in cases {
            let log = Recorder<Received>()
            let server = try server(log: log) { _, _, _ in .respond(Array("\(head)\r\nContent-Length: 2\r\n\r\nok".utf8)) }
            XCTAssertEqual(try execute(HTTPClientRequest(url: server.url("/first"))).get().body, Array("ok".utf8), head)
            XCTAssertEqual(try secondRequestReuses(server, log: log), reusable, head)
        }
    }
}
