import Foundation
@testable import HTTPClient
import EventLoopIO
import HTTPWire
import XCTest

/// `ExchangeMachine`, every decision of one exchange, driven event by event as `SocketExchange`
/// feeds it: no socket, no loop, no timer. Each event returns one `Action`.
final class ExchangeMachineTests: XCTestCase {
    private typealias Machine = ExchangeMachine
    /// An upload's file or stream error, as the driver hands it over.
    private static let unreadable = ExchangeFailure.UploadError(underlying: POSIXError(.ENOENT))

    private func machine(_ url: String = "http://a.test/start", method: String = "GET", headers: [String: String] = [:],
                         body: HTTPClientRequest.Body? = nil, downloadFile: URL? = nil,
                         maximumRedirects: Int = 5, hasOverallDeadline: Bool = false) throws -> Machine {
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: url)), method: method, headers: headers,
                                        body: body, downloadFile: downloadFile)
        return Machine(request: request, maximumRedirects: maximumRedirects, hasOverallDeadline: hasOverallDeadline)
    }

    /// The current request's target, read as the driver reads it.
    private func target(_ exchange: Machine) throws -> SocketRequestTarget {
        try SocketRequestTarget.read(exchange.request.url).get()
    }

    /// A download file the machine names but never touches.
    private var downloadFile: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ExchangeMachineTests-\(UUID().uuidString)")
    }

    /// Reads the target and asks the pool: the exchange waits for a lease.
    private func wait(_ exchange: inout Machine) throws {
        let target = try self.target(exchange)
        XCTAssertEqual(exchange.begin(.success(target)), .acquire(target.key, armWaitTimer: !exchange.hasOverallDeadline))
        XCTAssertEqual(exchange.phase, .waiting)
    }

    /// Gives the waiting exchange `lease` (a kept connection still open, or one the pool just
    /// opened) and gets it to send a request with no body or one in memory.
    private func lease(_ exchange: inout Machine, _ lease: Machine.Lease) throws {
        XCTAssertEqual(exchange.leased(lease) { false }, .send(body: .sendHead))
    }

    /// Makes the head as the driver does (framed for `body`), telling the machine whether it asks to close.
    private func makeHead(_ exchange: inout Machine, body: [UInt8]? = nil) throws {
        let framing = exchange.headPrepared(hasBody: body != nil, length: body.map { Int64($0.count) })
        XCTAssertEqual(framing, .length(Int64(body?.count ?? 0)))
        let head = SocketRequestEncoding.head(exchange.request, target: try target(exchange), framing: framing,
                                              acceptsCompression: exchange.acceptsCompression)
        exchange.headMade(asksToClose: head.asksToClose)
        XCTAssertTrue(exchange.writable)
    }

    /// Writes the head and `body` (one piece, from memory) until only the answer is left.
    private func write(_ exchange: inout Machine, body: [UInt8]? = nil) {
        guard let body else {
            return XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .awaitAnswer))
        }
        let generation = exchange.generation
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .readNow(generation: generation)))
        XCTAssertEqual(exchange.pieceRead(.success(body), generation: generation), .write(body))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: Int64(body.count), next: .readNow(generation: generation)))
        XCTAssertEqual(exchange.pieceRead(.success([]), generation: generation), .write([]))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .awaitAnswer))
        XCTAssertEqual(exchange.phase, .receiving)
    }

    /// A bodyless request on a connection of `lease`'s kind, its head made, not written yet.
    private func sending(_ lease: Machine.Lease = .connected, method: String = "GET", headers: [String: String] = [:],
                         downloadFile: URL? = nil, maximumRedirects: Int = 5) throws -> Machine {
        var exchange = try machine(method: method, headers: headers, downloadFile: downloadFile, maximumRedirects: maximumRedirects)
        try wait(&exchange)
        try self.lease(&exchange, lease)
        try makeHead(&exchange)
        XCTAssertTrue(exchange.isSending)
        return exchange
    }

    /// `sending(...)` with the request all out: only the answer is left.
    private func sent(_ lease: Machine.Lease = .connected, method: String = "GET", headers: [String: String] = [:],
                      downloadFile: URL? = nil, maximumRedirects: Int = 5) throws -> Machine {
        var exchange = try sending(lease, method: method, headers: headers, downloadFile: downloadFile, maximumRedirects: maximumRedirects)
        write(&exchange)
        XCTAssertEqual(exchange.phase, .receiving)
        return exchange
    }

    private func finish(_ disposal: Machine.Disposal, _ outcome: Machine.Outcome, leaveQueue: Bool = false) -> Machine.Action {
        .finish(leaveQueue: leaveQueue, disposal: disposal, outcome: outcome)
    }

    // MARK: One action per event

    /// A whole exchange, fed as the driver feeds it, is one action per event: the pool asked,
    /// the connection it opened used, the head and the body written, the answer awaited, and the
    /// connection pooled and the response delivered in one `finish`.
    func testAnExchangeIsOneActionPerEvent() throws {
        var exchange = try machine(method: "PUT", body: .bytes(Data([1, 2, 3])))
        let target = try self.target(exchange)
        var actions: [Machine.Action] = []
        actions.append(exchange.begin(.success(target)))
        actions.append(exchange.leased(.connected) { false })
        XCTAssertEqual(exchange.headPrepared(hasBody: true, length: 3), .length(3))
        exchange.headMade(asksToClose: false)
        actions.append(exchange.outputWritten())
        actions.append(exchange.pieceRead(.success([1, 2, 3]), generation: 1))
        actions.append(exchange.outputWritten())
        actions.append(exchange.pieceRead(.success([]), generation: 1))
        actions.append(exchange.outputWritten())
        exchange.bytesRead()
        exchange.headReceived(status: 200, location: nil)
        actions.append(exchange.bodyArrived(fileFailed: false))
        actions.append(exchange.responseComplete(keepAlive: true, status: 200, leftoverBytes: false))
        XCTAssertEqual(actions, [
            .acquire(target.key, armWaitTimer: true),
            .send(body: .sendHead),
            .outputWritten(progress: nil, next: .readNow(generation: 1)),
            .write([1, 2, 3]),
            .outputWritten(progress: 3, next: .readNow(generation: 1)),
            .write([]),
            .outputWritten(progress: nil, next: .awaitAnswer),
            .none,
            finish(.pool, .deliver(decodesBody: true)),
        ])
        XCTAssertEqual(exchange.phase, .done)
        XCTAssertFalse(exchange.holdsSlot)
    }

    /// With no slot held (a URL that cannot be sent, an exchange still queued, or between a
    /// redirect and its next lease), `finish` lets go of nothing: its disposal is `.none`.
    func testFinishGivesNoDisposalWhenNoSlotIsHeld() throws {
        var scheme = try machine("ftp://a.test/file")
        XCTAssertEqual(scheme.begin(SocketRequestTarget.read(scheme.request.url)), finish(.none, .fail(.invalidURL(unsupportedScheme: true))))
        XCTAssertEqual(scheme.phase, .done)
        XCTAssertEqual(scheme.begin(SocketRequestTarget.read(scheme.request.url)), .none, "once")

        var port = try machine("http://a.test:0/")
        XCTAssertEqual(port.begin(SocketRequestTarget.read(port.request.url)), finish(.none, .fail(.invalidURL(unsupportedScheme: false))))

        var queued = try machine()
        try wait(&queued)
        XCTAssertFalse(queued.holdsSlot)
        XCTAssertEqual(queued.cancel(), finish(.none, .tearDown, leaveQueue: true))

        var holding = try sent()
        XCTAssertTrue(holding.holdsSlot)
        XCTAssertEqual(holding.cancel(), finish(.close, .tearDown), "a slot held is given back, its connection closed")

        var redirected = try sent()
        redirected.headReceived(status: 302, location: "http://a.test:0/next")
        XCTAssertEqual(redirected.responseComplete(keepAlive: true, status: 302, leftoverBytes: false), finish(.pool, .followRedirect))
        XCTAssertFalse(redirected.holdsSlot, "the hop's slot went back with its connection")
        XCTAssertEqual(redirected.begin(SocketRequestTarget.read(redirected.request.url)), finish(.none, .fail(.invalidURL(unsupportedScheme: false))),
                       "a redirect to a URL that cannot be sent")
        XCTAssertNil(redirected.target, "the error names the URL that could not be read, not the last hop's host")
    }

    // MARK: Leases

    /// A connection the pool opened takes the request; a kept one too, polled first only for a
    /// request that may not be sent twice (a closed one is given up and a new one asked for). An
    /// overall deadline bounds the wait for a lease instead of the connect timer.
    func testEachLeaseSendsPollingOnlyWhatMayNotBeSentTwice() throws {
        var fresh = try machine(method: "POST")
        try wait(&fresh)
        XCTAssertEqual(fresh.leased(.connected) { XCTFail("a new connection is not polled"); return true }, .send(body: .sendHead))
        XCTAssertTrue(fresh.holdsSlot)
        XCTAssertFalse(fresh.reused)

        for lease in [Machine.Lease.reused, .handedOver] {
            var get = try machine()
            try wait(&get)
            XCTAssertEqual(get.leased(lease) { XCTFail("an idempotent request is not polled: a retry covers a close"); return true },
                           .send(body: .sendHead), "\(lease)")
            XCTAssertTrue(get.reused)
            XCTAssertTrue(get.holdsSlot)

            var post = try machine(method: "POST")
            try wait(&post)
            var polls = 0
            XCTAssertEqual(post.leased(lease) { polls += 1; return false }, .send(body: .sendHead), "\(lease)")
            XCTAssertEqual(polls, 1, "a POST's connection is polled")
            XCTAssertTrue(post.reused)

            var stale = try machine(method: "post")
            try wait(&stale)
            XCTAssertEqual(stale.leased(lease) { true }, .reconnect(armWaitTimer: true), "a POST is never sent on a closed connection")
            XCTAssertFalse(stale.reused)
            XCTAssertFalse(stale.holdsSlot, "the closed connection's slot goes back with it")
            XCTAssertEqual(stale.phase, .waiting)
        }

        var bounded = try machine(hasOverallDeadline: true)
        let target = try self.target(bounded)
        XCTAssertEqual(bounded.begin(.success(target)), .acquire(target.key, armWaitTimer: false))
    }

    /// A new `https` connection comes secured (the pool's opener ran its handshake) and takes the
    /// request at once; the socket is written only while sending; TLS failing later fails it.
    func testANewSecureConnectionTakesTheRequestAtOnce() throws {
        var exchange = try machine("https://a.test/start")
        try wait(&exchange)
        XCTAssertFalse(exchange.writable, "no socket is written while waiting")
        XCTAssertEqual(exchange.leased(.connected) { XCTFail("not polled"); return true }, .send(body: .sendHead))
        XCTAssertEqual(exchange.headPrepared(hasBody: false, length: nil), .length(0))
        XCTAssertEqual(exchange.attempt, 1)
        XCTAssertTrue(exchange.writable)
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .awaitAnswer))
        XCTAssertEqual(exchange.phase, .receiving)
        XCTAssertFalse(exchange.writable, "only the answer is awaited")
        var failing = exchange
        XCTAssertEqual(failing.tlsFailed(.tls(.protocolVersionRefused)), finish(.close, .fail(.tls(.protocolVersionRefused))))

        var refused = try machine("https://a.test/start")
        try wait(&refused)
        _ = refused.leased(.connected) { false }
        XCTAssertEqual(refused.tlsFailed(.tls(.protocolVersionRefused)), finish(.close, .fail(.tls(.protocolVersionRefused))),
                       "while sending too")
        XCTAssertEqual(refused.tlsFailed(.tls(.protocolVersionRefused)), .none, "ended already")
    }

    /// The connect the pool opened while the exchange was first in line failed: the exchange fails
    /// with it, holding no slot (a name not found, every address refused, or the connect timer).
    func testAConnectThatFailsForTheFirstInLineFailsIt() throws {
        for failure in [ExchangeFailure.cannotFindHost(code: EAI_NONAME), .cannotConnect(errno: ECONNREFUSED), .timedOut(.connect)] {
            var exchange = try machine()
            try wait(&exchange)
            XCTAssertEqual(exchange.leased(.failed(failure)) { XCTFail("no connection to poll"); return true },
                           finish(.none, .fail(failure)), "\(failure)")
            XCTAssertEqual(exchange.phase, .done)
            XCTAssertFalse(exchange.holdsSlot)
        }
    }

    /// A lease that reaches the loop after the exchange ended (cancelled, or timed out while
    /// queued) goes back to the pool unused.
    func testALeaseAfterCancelGoesBack() throws {
        var cancelled = try machine()
        try wait(&cancelled)
        XCTAssertEqual(cancelled.cancel(), finish(.none, .tearDown, leaveQueue: true))
        XCTAssertEqual(cancelled.leased(.connected) { false }, .returnLease)
        XCTAssertEqual(cancelled.leased(.reused) { false }, .returnLease)
        XCTAssertEqual(cancelled.leased(.failed(.cannotConnect(errno: ECONNREFUSED))) { false }, .none, "no slot to give back")
        XCTAssertFalse(cancelled.holdsSlot)

        var timedOut = try machine()
        try wait(&timedOut)
        _ = timedOut.connectTimerFired()
        XCTAssertEqual(timedOut.leased(.handedOver) { false }, .returnLease)
        XCTAssertFalse(timedOut.holdsSlot)
    }

    // MARK: A stale kept-alive connection

    /// A kept connection the server had closed (the answer cut before its first byte) sends the
    /// request again on another connection, once: the closed one's slot goes back and the pool
    /// is asked for a new one.
    func testAStaleKeptConnectionIsRetriedOnceOnAFreshOne() throws {
        var exchange = try sent(.reused)
        XCTAssertEqual(exchange.attempt, 1)
        XCTAssertEqual(exchange.endOfStream(.failure(.truncatedHead(received: 0))), .reconnect(armWaitTimer: true))
        XCTAssertEqual(exchange.phase, .waiting)
        XCTAssertFalse(exchange.reused)
        XCTAssertTrue(exchange.retried)
        XCTAssertFalse(exchange.holdsSlot, "the closed connection's slot went back")
        XCTAssertEqual(exchange.leased(.handedOver) { false }, .send(body: .sendHead))
        try makeHead(&exchange)
        XCTAssertEqual(exchange.attempt, 1)
        write(&exchange)
        XCTAssertEqual(exchange.endOfStream(.failure(.truncatedHead(received: 0))),
                       finish(.close, .fail(.response(.truncatedHead(received: 0)))), "only once")
    }

    /// A reset kept connection is retried (while the request is still going out too, or after
    /// its write failed), but not once a byte of the answer arrived.
    func testAResetKeptConnectionIsRetriedButNotAfterAByte() throws {
        var reset = try sent(.handedOver)
        XCTAssertEqual(reset.readFailed(errno: ECONNRESET), .reconnect(armWaitTimer: true))

        var whileSending = try sending(.reused)
        XCTAssertEqual(whileSending.readFailed(errno: ECONNRESET), .reconnect(armWaitTimer: true))

        var refusedWrite = try sending(.reused)
        XCTAssertEqual(refusedWrite.writeFailed(errno: EPIPE), .readAfterFailedWrite)
        XCTAssertEqual(refusedWrite.readFoundNothing(), .reconnect(armWaitTimer: true))

        var answered = try sent(.reused)
        answered.bytesRead()
        XCTAssertEqual(answered.readFailed(errno: ECONNRESET), finish(.close, .fail(.connectionLost(errno: ECONNRESET))))
        var cut = try sent(.reused)
        cut.bytesRead()
        XCTAssertEqual(cut.endOfStream(.failure(.truncatedHead(received: 0))), finish(.close, .fail(.response(.truncatedHead(received: 0)))))
    }

    /// Only an idempotent request on a kept connection is retried: never a POST, never a
    /// request on a fresh connection.
    func testOnlyIdempotentRequestsOnKeptConnectionsAreRetried() throws {
        var post = try sent(.reused, method: "POST")
        XCTAssertEqual(post.readFailed(errno: ECONNRESET), finish(.close, .fail(.connectionLost(errno: ECONNRESET))))
        var postCut = try sent(.handedOver, method: "POST")
        XCTAssertEqual(postCut.endOfStream(.failure(.truncatedHead(received: 0))), finish(.close, .fail(.response(.truncatedHead(received: 0)))))
        var fresh = try sent(.connected)
        XCTAssertEqual(fresh.readFailed(errno: ECONNRESET), finish(.close, .fail(.connectionLost(errno: ECONNRESET))))
        var put = try sent(.reused, method: "PUT")
        XCTAssertEqual(put.readFailed(errno: ECONNRESET), .reconnect(armWaitTimer: true), "PUT is idempotent")
    }

    // MARK: An early answer during an upload

    /// A 413 sent before the upload is all out, read after the write failed, is delivered and its
    /// connection closed; so is any answer that arrives while the request is still going out.
    func testAnEarly413DuringAnUploadIsDeliveredAndItsConnectionClosed() throws {
        for writeFails in [true, false] {
            var exchange = try machine(method: "POST", body: .bytes(Data([1, 2, 3, 4, 5])))
            try wait(&exchange)
            try lease(&exchange, .connected)
            try makeHead(&exchange, body: [1, 2, 3, 4, 5])
            XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .readNow(generation: 1)))
            XCTAssertEqual(exchange.pieceRead(.success([1, 2, 3, 4, 5]), generation: 1), .write([1, 2, 3, 4, 5]))
            if writeFails {
                XCTAssertEqual(exchange.writeFailed(errno: EPIPE), .readAfterFailedWrite)
                XCTAssertEqual(exchange.phase, .receiving)
                XCTAssertFalse(exchange.writable, "nothing more is written")
            }
            exchange.bytesRead()
            exchange.headReceived(status: 413, location: nil)
            XCTAssertEqual(exchange.bodyArrived(fileFailed: false), .none, "an in-memory body stays with the parser")
            XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 413, leftoverBytes: false),
                           finish(.close, .deliver(decodesBody: true)), "the request was not all sent: the connection is out of step")
        }
    }

    /// A write the peer refused with no answer waiting reports the write's errno, whether the
    /// read finds nothing, fails, or meets the close; a read finding nothing otherwise waits.
    func testAFailedWriteWithoutAnAnswerReportsTheWritesError() throws {
        var healthy = try sent()
        XCTAssertEqual(healthy.readFoundNothing(), .none, "a read that finds nothing while the request is healthy waits")
        XCTAssertEqual(healthy.writeFailed(errno: EPIPE), .none, "nothing is written while only the answer is left")
        XCTAssertNil(healthy.writeErrno)

        var silent = try sending()
        XCTAssertEqual(silent.writeFailed(errno: EPIPE), .readAfterFailedWrite)
        XCTAssertEqual(silent.readFoundNothing(), finish(.close, .fail(.connectionLost(errno: EPIPE))))
        var reset = try sending()
        _ = reset.writeFailed(errno: EPIPE)
        XCTAssertEqual(reset.readFailed(errno: ECONNRESET), finish(.close, .fail(.connectionLost(errno: EPIPE))))
        var closed = try sending()
        _ = closed.writeFailed(errno: EPIPE)
        XCTAssertEqual(closed.endOfStream(.failure(.truncatedHead(received: 0))), finish(.close, .fail(.connectionLost(errno: EPIPE))))
    }

    // MARK: Redirects

    /// Redirects are followed up to the limit, each hop giving its connection back (pooled or
    /// closed) in the same action that follows it; a POST moved by 303 goes on as a bodyless GET,
    /// and the redirect past the limit is refused with `tooManyRedirects` and the connection pooled.
    func testARedirectChainIsFollowedUpToTheLimit() throws {
        var exchange = try machine("http://a.test/form", method: "POST", body: .bytes(Data("a=1".utf8)), maximumRedirects: 2)
        try wait(&exchange)
        try lease(&exchange, .connected)
        try makeHead(&exchange, body: Array("a=1".utf8))
        write(&exchange, body: Array("a=1".utf8))
        exchange.headReceived(status: 303, location: "/result")
        XCTAssertEqual(exchange.bodyArrived(fileFailed: false), .none)
        XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 303, leftoverBytes: false), finish(.pool, .followRedirect))
        XCTAssertEqual(exchange.phase, .idle)
        XCTAssertFalse(exchange.holdsSlot)
        XCTAssertEqual(exchange.redirects, 1)
        XCTAssertEqual(exchange.request.url.absoluteString, "http://a.test/result")
        XCTAssertEqual(exchange.method, "GET")
        XCTAssertNil(exchange.request.body)
        XCTAssertTrue(exchange.idempotent, "a POST moved by 303 continues as a GET")

        try wait(&exchange)
        XCTAssertEqual(exchange.leased(.reused) { XCTFail("a GET is not polled"); return true }, .send(body: .sendHead))
        try makeHead(&exchange)
        write(&exchange)
        exchange.headReceived(status: 302, location: "http://b.test:8080/next")
        XCTAssertEqual(exchange.responseComplete(keepAlive: false, status: 302, leftoverBytes: false), finish(.close, .followRedirect))
        XCTAssertEqual(exchange.redirects, 2)
        XCTAssertEqual(try target(exchange).key, ConnectionPoolKey(host: "b.test", port: 8080), "the next hop goes to the other host")

        try wait(&exchange)
        try lease(&exchange, .connected)
        try makeHead(&exchange)
        write(&exchange)
        exchange.headReceived(status: 307, location: "/again")
        XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 307, leftoverBytes: false), finish(.pool, .fail(.tooManyRedirects(3))))
        XCTAssertEqual(exchange.redirects, 2)
        XCTAssertEqual(exchange.phase, .done)
    }

    /// The finish that follows a redirect leaves the hop's target in place: the driver gives
    /// the hop's slot back to that host (pooled or closed) before it reads the next target.
    func testAFollowedRedirectGivesItsSlotBackToItsOwnHost() throws {
        for keepAlive in [true, false] {
            var exchange = try sent()
            let first = try target(exchange)
            exchange.headReceived(status: 301, location: "http://b.test/moved")
            XCTAssertEqual(exchange.responseComplete(keepAlive: keepAlive, status: 301, leftoverBytes: false),
                           finish(keepAlive ? .pool : .close, .followRedirect))
            XCTAssertEqual(exchange.target?.key, first.key, "the slot goes back to a.test, not nowhere")
            let next = try target(exchange)
            XCTAssertEqual(exchange.begin(.success(next)), .acquire(next.key, armWaitTimer: true))
            XCTAssertEqual(exchange.target?.key, ConnectionPoolKey(host: "b.test", port: 80))
        }
    }

    /// A redirect delimited by the close is followed too (its connection closed); with no
    /// redirect allowed the first is refused; a 3xx the client does not follow is delivered.
    func testARedirectDelimitedByTheCloseIsFollowedToo() throws {
        var closed = try sent()
        closed.headReceived(status: 308, location: "/permanent")
        XCTAssertEqual(closed.endOfStream(.success(())), finish(.close, .followRedirect))
        XCTAssertEqual(closed.request.url.path, "/permanent")

        var none = try sent(maximumRedirects: 0)
        none.headReceived(status: 302, location: "/elsewhere")
        XCTAssertEqual(none.responseComplete(keepAlive: true, status: 302, leftoverBytes: false), finish(.pool, .fail(.tooManyRedirects(1))))

        var noLocation = try sent()
        noLocation.headReceived(status: 302, location: nil)
        XCTAssertEqual(noLocation.responseComplete(keepAlive: true, status: 302, leftoverBytes: false), finish(.pool, .deliver(decodesBody: true)))
        var secure = try sent()
        secure.headReceived(status: 301, location: "https://a.test/secure")
        XCTAssertEqual(secure.endOfStream(.success(())), finish(.close, .followRedirect), "http to https is followed")
        XCTAssertEqual(secure.request.url.absoluteString, "https://a.test/secure")
        var otherScheme = try sent()
        otherScheme.headReceived(status: 301, location: "ftp://a.test/file")
        XCTAssertEqual(otherScheme.endOfStream(.success(())), finish(.close, .deliver(decodesBody: true)))
    }

    /// 307 repeats the method and its body, read again from the start under a new generation.
    func testATemporaryRedirectSendsTheBodyAgain() throws {
        var exchange = try machine(method: "POST", body: .bytes(Data([7, 8])))
        try wait(&exchange)
        try lease(&exchange, .connected)
        try makeHead(&exchange, body: [7, 8])
        write(&exchange, body: [7, 8])
        let firstGeneration = exchange.generation
        exchange.headReceived(status: 307, location: "/again")
        XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 307, leftoverBytes: false), finish(.pool, .followRedirect))
        XCTAssertEqual(exchange.method, "POST")
        XCTAssertFalse(exchange.idempotent)
        try wait(&exchange)
        try lease(&exchange, .handedOver)
        XCTAssertNotEqual(exchange.generation, firstGeneration)
        try makeHead(&exchange, body: [7, 8])
        write(&exchange, body: [7, 8])
    }

    // MARK: Bodies: gzip and downloads

    /// A body kept in memory asks for gzip and deflate, and is delivered to be decoded (what that
    /// decoding does with a real gzip body is shown too); a download never asks.
    func testAnInMemoryBodyAsksForGzipAndIsDecoded() throws {
        var exchange = try sent()
        XCTAssertTrue(exchange.acceptsCompression)
        let head = SocketRequestEncoding.head(exchange.request, target: try target(exchange), framing: .length(0),
                                              acceptsCompression: exchange.acceptsCompression)
        XCTAssertTrue(String(decoding: head.bytes, as: UTF8.self).contains("Accept-Encoding: gzip, deflate\r\n"))
        exchange.headReceived(status: 200, location: nil)
        XCTAssertEqual(exchange.bodyArrived(fileFailed: false), .none)
        XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 200, leftoverBytes: false), finish(.pool, .deliver(decodesBody: true)))

        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../HTTPWireTests/Fixtures/compression")
        let zipped = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("plain.gzip-1.gz")))
        let plain = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("plain.txt")))
        var headers = HTTPHeaders()
        headers.add(name: "Content-Encoding", value: "gzip")
        XCTAssertEqual(try ContentDecoding.decode(zipped, headers: headers, limit: 1 << 24).get(), plain)

        let download = try sent(downloadFile: downloadFile)
        XCTAssertFalse(download.acceptsCompression, "a file gets the bytes as sent")
        let downloadHead = SocketRequestEncoding.head(download.request, target: try target(download), framing: .length(0),
                                                      acceptsCompression: download.acceptsCompression)
        XCTAssertFalse(String(decoding: downloadHead.bytes, as: UTF8.self).contains("Accept-Encoding"))
    }

    /// A download's body goes to its file, made with the final response's head, and is not
    /// decoded; a followed redirect's body is dropped and counts for no progress; a file that
    /// fails ends the exchange, and a failure of its last writes turns a response into one.
    func testADownloadGoesToItsFileAndARedirectsBodyIsDropped() throws {
        var exchange = try sent(downloadFile: downloadFile)
        exchange.headReceived(status: 302, location: "/file")
        XCTAssertFalse(exchange.reportsDownloadProgress, "a redirect's bytes are not the download's")
        XCTAssertEqual(exchange.bodyArrived(fileFailed: false), .bodyBytes(.drop))
        XCTAssertEqual(exchange.bodyArrived(fileFailed: false), .bodyBytes(.drop))
        XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 302, leftoverBytes: false), finish(.pool, .followRedirect))
        try wait(&exchange)
        try lease(&exchange, .handedOver)
        try makeHead(&exchange)
        write(&exchange)
        exchange.headReceived(status: 200, location: nil)
        XCTAssertTrue(exchange.reportsDownloadProgress)
        XCTAssertEqual(exchange.bodyArrived(fileFailed: false), .bodyBytes(.writeToFile(create: true)), "the final head makes the file")
        XCTAssertEqual(exchange.bodyArrived(fileFailed: false), .bodyBytes(.writeToFile(create: false)))
        XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 200, leftoverBytes: false), finish(.pool, .deliver(decodesBody: false)))
        XCTAssertFalse(exchange.downloadClosed(succeeded: true, fileFailed: false))

        var failing = try sent(downloadFile: downloadFile)
        failing.headReceived(status: 200, location: nil)
        XCTAssertEqual(failing.bodyArrived(fileFailed: false), .bodyBytes(.writeToFile(create: true)))
        XCTAssertEqual(failing.bodyArrived(fileFailed: true), finish(.close, .fail(.downloadFailed)))
        XCTAssertEqual(failing.phase, .done)
        XCTAssertFalse(failing.downloadClosed(succeeded: false, fileFailed: true), "the failure reported stays as it is")

        var lastWrites = try sent(downloadFile: downloadFile)
        lastWrites.headReceived(status: 200, location: nil)
        _ = lastWrites.bodyArrived(fileFailed: false)
        XCTAssertEqual(lastWrites.responseComplete(keepAlive: true, status: 200, leftoverBytes: false), finish(.pool, .deliver(decodesBody: false)))
        XCTAssertTrue(lastWrites.downloadClosed(succeeded: true, fileFailed: true))

        var inMemory = try sent()
        inMemory.headReceived(status: 302, location: "/x")
        XCTAssertEqual(inMemory.bodyArrived(fileFailed: false), .none, "a body in memory stays with the parser")
    }

    // MARK: Reuse

    /// A connection is pooled after a whole answer unless the request or the response said
    /// `Connection: close`, the protocol switched, bytes followed the response, the close
    /// delimited it, or it came before the request was all out.
    func testConnectionCloseAndOtherReasonsNotToPoolAConnection() throws {
        let delivered = { (disposal: Machine.Disposal) in self.finish(disposal, .deliver(decodesBody: true)) }
        var plain = try sent()
        XCTAssertEqual(plain.responseComplete(keepAlive: true, status: 200, leftoverBytes: false), delivered(.pool))
        var asked = try sent(headers: ["Connection": "close"])
        XCTAssertTrue(asked.requestAsksToClose)
        XCTAssertEqual(asked.responseComplete(keepAlive: true, status: 200, leftoverBytes: false), delivered(.close), "the request said Connection: close")
        var answered = try sent()
        XCTAssertEqual(answered.responseComplete(keepAlive: false, status: 200, leftoverBytes: false), delivered(.close), "the response said Connection: close")
        var upgraded = try sent()
        XCTAssertEqual(upgraded.responseComplete(keepAlive: true, status: 101, leftoverBytes: false), delivered(.close), "switching protocols")
        var leftover = try sent()
        XCTAssertEqual(leftover.responseComplete(keepAlive: true, status: 200, leftoverBytes: true), delivered(.close), "bytes after the response")
        var closed = try sent()
        XCTAssertEqual(closed.endOfStream(.success(())), delivered(.close), "a body delimited by the close")
        var early = try sending()
        XCTAssertEqual(early.responseComplete(keepAlive: true, status: 200, leftoverBytes: false), delivered(.close), "before the request was all out")
    }

    // MARK: A response cut short

    /// A response cut inside its head (real bytes, cut by the parser) fails with that error,
    /// which the client reports as the connection lost; bytes the parser refuses fail the same
    /// way, the connection closed.
    func testAResponseCutInsideItsHeadIsAConnectionLost() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        let partial = try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Le".utf8))
        XCTAssertNil(partial)
        let cut: HTTPWireError
        do {
            _ = try parser.finishAtEndOfStream()
            return XCTFail("a head cut short is no response")
        } catch {
            cut = error
        }
        guard case .truncatedHead(let received) = cut, received > 0 else { return XCTFail("\(cut)") }
        var exchange = try sent(.reused)
        exchange.bytesRead()
        XCTAssertEqual(exchange.endOfStream(.failure(cut)), finish(.close, .fail(.response(cut))), "not retried: bytes arrived")
        guard case .connectionLost(nil) = HTTPClientError(cut) else {
            return XCTFail("a head cut short is reported as the connection lost, not \(HTTPClientError(cut))")
        }

        var malformedParser = HTTPResponseParser(requestMethod: "GET")
        let refused: HTTPWireError
        do {
            _ = try malformedParser.feed(Array("HTTP/1.1 2x0 OK\r\n\r\n".utf8))
            return XCTFail("a status that is not a number is refused")
        } catch {
            refused = error
        }
        var malformed = try sent()
        malformed.bytesRead()
        XCTAssertEqual(malformed.parseFailed(refused), finish(.close, .fail(.response(refused))))
        XCTAssertEqual(malformed.parseFailed(refused), .none, "once")
    }

    // MARK: Uploads

    /// An upload whose file cannot be opened, or whose piece cannot be read, fails the exchange
    /// with `uploadFailed` carrying its error, the connection closed.
    func testAnUploadThatFailsEndsTheExchange() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("ExchangeMachineTests-\(UUID().uuidString)")
        XCTAssertThrowsError(try UploadBodyReader(.file(missing)), "the file is not there")
        var unopened = try machine(method: "PUT", body: .file(missing))
        try wait(&unopened)
        XCTAssertEqual(unopened.leased(.reused) { false }, .send(body: .open(generation: 1)))
        XCTAssertEqual(unopened.bodyOpened(generation: 1, failure: Self.unreadable), finish(.close, .fail(.uploadFailed(Self.unreadable))))

        var unread = try machine(method: "PUT", body: .stream({ InputStream(data: Data()) }, length: nil))
        try wait(&unread)
        XCTAssertEqual(unread.leased(.reused) { false }, .send(body: .open(generation: 1)))
        XCTAssertEqual(unread.bodyOpened(generation: 1, failure: nil), .sendHead)
        XCTAssertEqual(unread.headPrepared(hasBody: true, length: nil), .chunked)
        XCTAssertEqual(unread.outputWritten(), .outputWritten(progress: nil, next: .readOffLoop(generation: 1)))
        XCTAssertEqual(unread.pieceRead(.failure(Self.unreadable), generation: 1), finish(.close, .fail(.uploadFailed(Self.unreadable))))
    }

    /// The body's generation tells late results of an attempt given up (a stale connection
    /// retried while a piece was read off the loop) from the current attempt's: a late reader is
    /// closed, a late failure or piece ignored, and the retry counts its own bytes.
    func testTheBodyGenerationTellsLateResultsOfAnAttemptGivenUp() throws {
        var exchange = try machine(method: "PUT", body: .file(downloadFile))
        try wait(&exchange)
        XCTAssertEqual(exchange.leased(.reused) { false }, .send(body: .open(generation: 1)))
        XCTAssertFalse(exchange.writable, "the head waits for the file's length")
        XCTAssertEqual(exchange.bodyOpened(generation: 1, failure: nil), .sendHead)
        XCTAssertEqual(exchange.headPrepared(hasBody: true, length: 4), .length(4))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .readOffLoop(generation: 1)))
        XCTAssertFalse(exchange.writable, "a piece is read off the loop")
        XCTAssertEqual(exchange.readFailed(errno: ECONNRESET), .reconnect(armWaitTimer: true), "reset while the piece was read")
        XCTAssertEqual(exchange.leased(.connected) { false }, .send(body: .open(generation: 2)))

        XCTAssertEqual(exchange.pieceRead(.success([1, 2]), generation: 1), .none, "the first attempt's piece")
        XCTAssertEqual(exchange.bodyOpened(generation: 1, failure: nil), .discardReader, "a reader of the first attempt is closed")
        XCTAssertEqual(exchange.bodyOpened(generation: 1, failure: Self.unreadable), .none, "its failure is no failure")
        XCTAssertTrue(exchange.isSending)
        XCTAssertEqual(exchange.bodyOpened(generation: 2, failure: nil), .sendHead)
        XCTAssertEqual(exchange.headPrepared(hasBody: true, length: 4), .length(4))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .readOffLoop(generation: 2)))
        XCTAssertEqual(exchange.pieceRead(.success([1, 2, 3, 4]), generation: 1), .none)
        XCTAssertEqual(exchange.pieceRead(.success([1, 2, 3, 4]), generation: 2), .write([1, 2, 3, 4]))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: 4, next: .readOffLoop(generation: 2)), "the retry counts its own bytes")
        XCTAssertEqual(exchange.pieceRead(.success([]), generation: 2), .write([]))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .awaitAnswer))
    }

    // MARK: Timeouts

    /// Each timer fails the exchange only in its own phase: the connect timer while queued (it
    /// leaves the queue), the idle timer while opening, sending or receiving (armed
    /// again when bytes moved meanwhile), the overall one anywhere until the exchange ends.
    func testEachTimeoutFailsOnlyInItsPhase() throws {
        var waiting = try machine()
        try wait(&waiting)
        XCTAssertEqual(waiting.idleTimerFired(idleFor: .seconds(9), idleTimeout: .seconds(1)), .none, "no idle timer while waiting")
        var overallWhileWaiting = waiting
        XCTAssertEqual(overallWhileWaiting.overallTimerFired(), finish(.none, .fail(.timedOut(.overall)), leaveQueue: true))
        XCTAssertEqual(waiting.connectTimerFired(), finish(.none, .fail(.timedOut(.connect)), leaveQueue: true),
                       "waiting for a pooled connection is bounded by the connect timeout, and leaves the queue")
        XCTAssertEqual(waiting.phase, .done)

        var opening = try machine(method: "PUT", body: .file(downloadFile))
        try wait(&opening)
        XCTAssertEqual(opening.leased(.reused) { false }, .send(body: .open(generation: 1)))
        XCTAssertEqual(opening.idleTimerFired(idleFor: .seconds(2), idleTimeout: .seconds(1)), finish(.close, .fail(.timedOut(.idle))))

        var writing = try sending()
        XCTAssertEqual(writing.idleTimerFired(idleFor: .milliseconds(400), idleTimeout: .seconds(1)), .rearmIdleTimer,
                       "bytes moved since the timer was armed")
        XCTAssertEqual(writing.idleTimerFired(idleFor: .seconds(1), idleTimeout: .seconds(1)), finish(.close, .fail(.timedOut(.idle))))

        var receiving = try sent()
        var overallWhileReceiving = receiving
        XCTAssertEqual(receiving.idleTimerFired(idleFor: .seconds(3), idleTimeout: .seconds(1)), finish(.close, .fail(.timedOut(.idle))))
        XCTAssertEqual(overallWhileReceiving.overallTimerFired(), finish(.close, .fail(.timedOut(.overall))))
        XCTAssertEqual(overallWhileReceiving.overallTimerFired(), .none, "reported already")
        XCTAssertEqual(overallWhileReceiving.idleTimerFired(idleFor: .seconds(3), idleTimeout: .seconds(1)), .none)
        XCTAssertEqual(overallWhileReceiving.connectTimerFired(), .none)
    }

    // MARK: Cancel

    /// Cancel in every phase tears down once (leaving the queue when queued, closing the
    /// connection when a slot is held); nothing that arrives later revives the exchange.
    func testCancelInEveryPhaseTearsDownOnce() throws {
        var phases: [(name: String, exchange: Machine, expected: Machine.Action)] = []
        let idle = try machine()
        phases.append(("idle", idle, finish(.none, .tearDown)))
        var waiting = idle
        try wait(&waiting)
        phases.append(("waiting", waiting, finish(.none, .tearDown, leaveQueue: true)))
        var opening = try machine(method: "PUT", body: .file(downloadFile))
        try wait(&opening)
        _ = opening.leased(.reused) { false }
        phases.append(("opening", opening, finish(.close, .tearDown)))
        phases.append(("sending", try sending(), finish(.close, .tearDown)))
        phases.append(("receiving", try sent(), finish(.close, .tearDown)))

        for (name, var exchange, expected) in phases {
            let generation = exchange.generation
            XCTAssertEqual(exchange.cancel(), expected, name)
            XCTAssertEqual(exchange.phase, .done, name)
            XCTAssertFalse(exchange.holdsSlot, name)
            XCTAssertEqual(exchange.cancel(), .none, "once, \(name)")
            XCTAssertEqual(exchange.overallTimerFired(), .none, "nothing is reported after cancel, \(name)")
            XCTAssertEqual(exchange.leased(.connected) { false }, .returnLease, name)
            XCTAssertEqual(exchange.leased(.failed(.cannotConnect(errno: ECONNREFUSED))) { false }, .none, name)
            XCTAssertEqual(exchange.tlsFailed(.tls(.protocolVersionRefused)), .none, name)
            XCTAssertEqual(exchange.bodyOpened(generation: generation, failure: nil), .discardReader, "a reader opened too late is closed, \(name)")
            XCTAssertEqual(exchange.bodyOpened(generation: generation, failure: Self.unreadable), .none, name)
            XCTAssertEqual(exchange.pieceRead(.success([1]), generation: generation), .none, name)
            XCTAssertEqual(exchange.readFailed(errno: ECONNRESET), .none, name)
            XCTAssertEqual(exchange.responseComplete(keepAlive: true, status: 200, leftoverBytes: false), .none, name)
            XCTAssertEqual(exchange.endOfStream(.success(())), .none, name)
            XCTAssertEqual(exchange.begin(SocketRequestTarget.read(exchange.request.url)), .none, name)
            XCTAssertFalse(exchange.writable, name)
            XCTAssertEqual(exchange.phase, .done, "nothing revives it, \(name)")
        }

        var reported = try sent()
        _ = reported.responseComplete(keepAlive: true, status: 200, leftoverBytes: false)
        XCTAssertEqual(reported.cancel(), .none, "a reported exchange has nothing to cancel")
    }

    /// A slow sink pauses the reads only once the whole request is out (an early answer's reads
    /// go on, as pausing them would stop the writing too), and its catching up resumes them only
    /// while the answer is still read.
    func testASlowSinkPausesTheReadsOnlyWhileReceiving() throws {
        var early = try sending(downloadFile: downloadFile)
        XCTAssertEqual(early.sinkBacklogged(), .none, "an early answer keeps the socket read")
        XCTAssertTrue(early.isSending)

        var receiving = try sent(downloadFile: downloadFile)
        XCTAssertEqual(receiving.sinkBacklogged(), .pauseReading)
        XCTAssertEqual(receiving.sinkDrained(), .resumeReading)
        XCTAssertEqual(receiving.phase, .receiving)

        var ended = try sent(downloadFile: downloadFile)
        XCTAssertEqual(ended.sinkBacklogged(), .pauseReading)
        _ = ended.idleTimerFired(idleFor: .seconds(2), idleTimeout: .seconds(1))
        XCTAssertEqual(ended.phase, .done)
        XCTAssertEqual(ended.sinkDrained(), .none, "the sink caught up after the end: nothing is read again")
    }
}
