import FeedServer
import Foundation
@testable import HTTPClient
import EventLoopIO
import HTTPWire
import TestSupport
import XCTest

/// The pool's limits and a request's life in it, against a `FeedServer` (or a
/// `ScriptedHTTPServer`) on 127.0.0.1 counting connections: at most `maximumConnectionsPerHost`
/// open, waiters served in order, a waiter that gives up (deadline, cancel) leaving the queue for
/// good, idle connections closed after their timeout or when the server closes them (RFC 9112
/// §9.3, §9.5), cancellation in every phase freeing the slot, each deadline failing with its own
/// kind, and `http` and `https` never sharing a connection.
final class PoolLifecycleRulesTests: HTTPClientTestCase {
    /// A client with `limit` connections per host (and the test case's timeouts, unless given).
    func client(limit: Int, connectTimeout: Duration = .seconds(5), overallDeadline: Duration? = nil,
                idleConnectionTimeout: Duration = .seconds(60)) -> HTTPClient {
        HTTPClient(configuration: .init(maximumConnectionsPerHost: limit, connectTimeout: connectTimeout, idleTimeout: .seconds(5),
                                        overallDeadline: overallDeadline, idleConnectionTimeout: idleConnectionTimeout))
    }

    /// Starts `request` with the completion form; its answers go to `answers` under `name`.
    @discardableResult
    func start(_ request: HTTPClientRequest, on client: HTTPClient, as name: String,
               into answers: Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>) -> any HTTPClientTask {
        client.execute(request) { result in answers.append((name, result)) }
    }

    /// Makes `client` one of a single connection a host (`connectTimeout` for a wait), whose
    /// connection a `GET /hang` then holds: returns the recorder of answers by name and the
    /// holder's task, once the server has the holder's request.
    func holdingTheOnlySlot(connectTimeout: Duration = .seconds(5))
        -> (answers: Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>, holder: any HTTPClientTask) {
        client = client(limit: 1, connectTimeout: connectTimeout)
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        let holder = start(HTTPClientRequest(url: url("hang")), on: client, as: "holder", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.requestCount(path: "/hang") == 1 })
        return (answers, holder)
    }

    // MARK: 1. The limit, the order, a waiter giving up

    func testManyRequestsNeverOpenMoreThanTheLimit() throws {
        client = client(limit: 3)
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        for index in 0..<24 { start(HTTPClientRequest(url: url("delay/30")), on: client, as: "\(index)", into: answers) }
        var most = 0
        XCTAssertTrue(waitUntil(timeout: 30) {
            most = max(most, self.server.openConnectionCount)
            return answers.count == 24
        })
        XCTAssertLessThanOrEqual(most, 3, "never more than the limit open at the server")
        XCTAssertLessThanOrEqual(server.connectionCount, 3, "the connections were reused")
        XCTAssertEqual(answers.values.filter { (try? $0.1.get().status) == 200 }.count, 24)
    }

    func testWaitersAreServedInTheOrderTheyWereSent() throws {
        let server = try ScriptedHTTPServer { _, _, head in
            let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
            return head.target == "/first" ? .respondInPieces([[], ok], interval: .milliseconds(300)) : .respond(ok)
        }
        defer { server.stop() }
        client = client(limit: 1)
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        start(HTTPClientRequest(url: server.url("/first")), on: client, as: "first", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { server.requests.count == 1 })
        for index in 1...6 { start(HTTPClientRequest(url: server.url("/\(index)")), on: client, as: "\(index)", into: answers) }
        XCTAssertTrue(waitUntil(timeout: 20) { answers.count == 7 })
        XCTAssertEqual(server.requests.map(\.head.target), ["/first", "/1", "/2", "/3", "/4", "/5", "/6"])
        XCTAssertEqual(server.connectionCount, 1)
    }

    /// A request whose deadline passes while it waits for a slot fails with `.timedOut(.overall)`
    /// at once, leaves the queue and is never sent later, when the slot frees.
    func testAWaiterWhoseDeadlinePassesFailsAndIsNeverSent() throws {
        let (answers, holder) = holdingTheOnlySlot()
        let late = HTTPClientRequest(url: url("echo"), deadline: .now + .milliseconds(200))
        let began = ContinuousClock.now
        start(late, on: client, as: "late", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
        XCTAssertLessThan(ContinuousClock.now - began, .seconds(3))
        guard case .failure(.timedOut(.overall, _, _, _))? = answers.values.first?.1 else {
            return XCTFail("expected .timedOut(.overall), got \(answers.values)")
        }
        holder.cancel()
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("status/204"))).get().status, 204)
        XCTAssertEqual(server.requestCount(path: "/echo"), 0, "the request that timed out in the queue was never sent")
        XCTAssertEqual(answers.count, 1, "nothing else reported")
    }

    /// Without a deadline, the wait for a slot is bounded by `connectTimeout`: `.timedOut(.connect)`.
    func testAWaiterWithoutADeadlineFailsAfterTheConnectTimeout() throws {
        let (answers, holder) = holdingTheOnlySlot(connectTimeout: .milliseconds(300))
        start(HTTPClientRequest(url: url("echo")), on: client, as: "waiter", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
        guard case .failure(.timedOut(.connect, let after, _, _))? = answers.values.first?.1 else {
            return XCTFail("expected .timedOut(.connect), got \(answers.values)")
        }
        XCTAssertEqual(after, .milliseconds(300))
        holder.cancel()
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("status/204"))).get().status, 204)
        XCTAssertEqual(server.requestCount(path: "/echo"), 0)
    }

    /// Requests cancelled at every stage (waiting, sent, answered) leave no slot held and no
    /// socket open: afterwards the limit still serves a batch, and the pool's connections are all
    /// the process holds beyond what it held before.
    func testCancellationsAtEveryStageLeakNoSlotAndNoSocket() throws {
        client = client(limit: 2)
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200)
        client.closeIdleConnections()
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 })
        let descriptors = openDescriptorCount()
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        var tasks: [any HTTPClientTask] = []
        for index in 0..<60 {
            let path = ["delay/5", "echo", "hang", "drip?interval=20&count=5"][index % 4]
            tasks.append(start(HTTPClientRequest(url: url(path)), on: client, as: "\(index)", into: answers))
            if index % 3 == 0 { tasks[index / 2].cancel() }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.requestCount(path: "/hang") > 0 })
        for task in tasks { task.cancel() }
        let batch = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        for index in 0..<10 { start(HTTPClientRequest(url: url("echo")), on: client, as: "\(index)", into: batch) }
        XCTAssertTrue(waitUntil(timeout: 20) { batch.count == 10 }, "the slots were all given back")
        XCTAssertEqual(batch.values.filter { (try? $0.1.get().status) == 200 }.count, 10)
        client.closeIdleConnections()
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "every connection was closed")
        XCTAssertTrue(waitUntil(timeout: 10) { openDescriptorCount() <= descriptors }, "no socket left open")
    }

    // MARK: 2. Idle connections

    func testAnIdleConnectionIsClosedAfterTheIdleTimeoutAndTheServerSeesIt() throws {
        client = client(limit: 2, idleConnectionTimeout: .milliseconds(200))
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200)
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the server saw the idle connection closed")
        XCTAssertEqual(client.idleConnectionCount, 0)
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200)
        XCTAssertEqual(server.connectionCount, 2)
    }

    /// RFC 9112 §9.5: a server may close an idle connection at any time; the client never sends
    /// on one it closed (the pool lets go of it as its close arrives).
    func testAConnectionTheServerClosedWhileParkedIsNeverHandedOut() throws {
        server.stop()
        server = try FeedServer(configuration: .init(idleTimeout: .milliseconds(200)))
        client = client(limit: 1)
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200)
        XCTAssertTrue(waitUntil(timeout: 10) { self.client.idleConnectionCount == 0 }, "the pool let go of the closed connection")
        let post = HTTPClientRequest(url: url("echo"), method: "POST", body: .bytes(Data("x".utf8)))
        XCTAssertEqual(try executeWithCompletion(post).get().status, 200)
        XCTAssertEqual(server.connectionCount, 2)
    }

    /// RFC 9112 §9.3.1: a kept connection the server closes as the next request arrives (no
    /// answer): an idempotent request is sent once more on a new connection, ahead of the
    /// requests sent after it, within the limit; a POST fails as `connectionLost`.
    func testARequestOnAConnectionClosedUnderItIsRetriedOnlyWhenIdempotent() throws {
        let server = try ScriptedHTTPServer { connection, request, _ in
            let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
            return connection == 1 && request == 2 ? .close : .respond(ok)
        }
        defer { server.stop() }
        client = client(limit: 1)
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: server.url("/a"))).get().status, 200)
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        start(HTTPClientRequest(url: server.url("/b")), on: client, as: "b", into: answers)
        start(HTTPClientRequest(url: server.url("/c")), on: client, as: "c", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 2 })
        XCTAssertEqual(answers.values.map { "\($0.0) \((try? $0.1.get().status) ?? 0)" }, ["b 200", "c 200"])
        XCTAssertEqual(server.requests.map(\.head.target), ["/a", "/b", "/b", "/c"])
        XCTAssertEqual(server.connectionCount, 2)

        let posting = try ScriptedHTTPServer { connection, request, _ in
            connection == 1 && request == 2 ? .close : .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { posting.stop() }
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: posting.url("/a"))).get().status, 200)
        let post = try executeWithCompletion(HTTPClientRequest(url: posting.url("/post"), method: "POST", body: .bytes(Data("x".utf8))))
        guard case .failure(.connectionLost) = post else { return XCTFail("expected .connectionLost, got \(post)") }
        XCTAssertEqual(posting.requests.map(\.head.target), ["/a", "/post"], "the POST was sent once")
    }

    /// Over TLS too: the server's `close_notify` on an idle connection takes it out of the pool
    /// (while the session tickets TLS 1.3 sends after the answer do not), and the next request
    /// opens a new one.
    func testATLSConnectionTheServerClosedWhileParkedIsNeverHandedOut() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        server.stop()
        server = try FeedServer(configuration: .init(idleTimeout: .milliseconds(300), tls: TLSFixtures.server()))
        client = HTTPClient(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(5), tls: TLSFixtures.client))
        let secure = try XCTUnwrap(URL(string: "https://localhost:\(server.port)/echo"))
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: secure)).get().status, 200)
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: secure)).get().status, 200)
        XCTAssertEqual(server.connectionCount, 1, "kept alive across the session tickets")
        XCTAssertTrue(waitUntil(timeout: 10) { self.client.idleConnectionCount == 0 }, "the pool let go of the closed connection")
        let post = HTTPClientRequest(url: secure, method: "POST", body: .bytes(Data("x".utf8)))
        XCTAssertEqual(try executeWithCompletion(post).get().status, 200)
        XCTAssertEqual(server.connectionCount, 2)
    }

    // MARK: 3. Cancellation

    func testCancellingAWaiterFreesNothingAndIsNeverSent() throws {
        let (answers, holder) = holdingTheOnlySlot()
        let waiter = start(HTTPClientRequest(url: url("echo")), on: client, as: "waiter", into: answers)
        waiter.cancel()
        holder.cancel()
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("status/204"))).get().status, 204)
        XCTAssertEqual(server.requestCount(path: "/echo"), 0)
        XCTAssertEqual(answers.count, 0)
    }

    func testCancellingTheCallingTaskWhileWaitingForASlotThrowsCancelledOnce() throws {
        let (_, holder) = holdingTheOnlySlot()
        let began = ContinuousClock.now
        let (result, _) = try executeAsync(HTTPClientRequest(url: url("echo"))) { ContinuousClock.now - began > .milliseconds(100) }
        guard case .failure(.cancelled) = result else { return XCTFail("expected .cancelled, got \(result)") }
        holder.cancel()
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("status/204"))).get().status, 204)
        XCTAssertEqual(server.requestCount(path: "/echo"), 0)
    }

    /// Cancelled while its body streams: `.cancelled` from the body, the connection closed (not
    /// pooled), and its slot goes to the next request.
    func testCancellingWhileTheBodyStreamsClosesTheConnectionAndFreesTheSlot() throws {
        client = client(limit: 1)
        let outcome = Recorder<String>()
        let client = self.client!
        let dripURL = url("drip?interval=200&count=50")
        let task = Task {
            do throws(HTTPClientError) {
                let response = try await client.stream(HTTPClientRequest(url: dripURL))
                outcome.append("head \(response.status)")
                for try await _ in response.body {}
                outcome.append("body ended")
            } catch {
                if case .cancelled = error { outcome.append("cancelled") } else { outcome.append("\(error)") }
            }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { outcome.count == 1 })
        task.cancel()
        XCTAssertTrue(waitUntil(timeout: 10) { outcome.count == 2 })
        XCTAssertEqual(outcome.values, ["head 200", "cancelled"])
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the connection was closed")
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("status/204"))).get().status, 204)
        XCTAssertEqual(server.connectionCount, 2, "the cancelled connection was not pooled")
    }

    /// Cancelled while its body is being sent to a server that reads none of it: the
    /// connection is closed and the slot goes to the next request.
    func testCancellingWhileSendingFreesTheSlot() throws {
        let server = try ScriptedHTTPServer(onAccept: .answerHead) { connection, _, _ in
            connection == 1 ? .respondAndHold([]) : .respondAndClose(Array("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".utf8))
        }
        defer { server.stop() }
        client = client(limit: 1)
        let sent = Recorder<Int64>()
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        var upload = HTTPClientRequest(url: server.url("/upload"), method: "PUT", body: .bytes(Data(count: 32 << 20)))
        upload.uploadProgress = { bytes, _ in sent.append(bytes) }
        let task = start(upload, on: client, as: "upload", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { (sent.values.last ?? 0) > 0 }, "the body is being sent")
        start(HTTPClientRequest(url: server.url("/next")), on: client, as: "next", into: answers)
        task.cancel()
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
        XCTAssertEqual(answers.values.map { "\($0.0) \((try? $0.1.get().status) ?? 0)" }, ["next 204"], "the waiter got the slot")
        XCTAssertEqual(server.connectionCount, 2)
    }

    /// The overall deadline bounds a streamed body: the body fails with `.timedOut(.overall)`
    /// and the connection is closed, not pooled.
    func testTheDeadlineEndsAStreamedBodyAndItsConnection() throws {
        client = client(limit: 1)
        let outcome = Recorder<String>()
        let client = self.client!
        let request = HTTPClientRequest(url: url("drip?interval=100&count=50"), deadline: .now + .milliseconds(500))
        Task {
            do throws(HTTPClientError) {
                let response = try await client.stream(request)
                outcome.append("head \(response.status)")
                for try await _ in response.body {}
                outcome.append("body ended")
            } catch {
                if case .timedOut(.overall, _, _, _) = error { outcome.append("overall") } else { outcome.append("\(error)") }
            }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { outcome.count == 2 })
        XCTAssertEqual(outcome.values, ["head 200", "overall"])
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the connection was closed")
        XCTAssertEqual(client.idleConnectionCount, 0)
    }

    /// Cancelled while the answer's head is awaited, with a request waiting for the one slot:
    /// the waiter is served on a new connection at once.
    func testCancellingWhileTheHeadIsAwaitedHandsTheSlotToTheWaiter() throws {
        let (answers, holder) = holdingTheOnlySlot()
        start(HTTPClientRequest(url: url("echo")), on: client, as: "waiter", into: answers)
        holder.cancel()
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
        XCTAssertEqual(answers.values.map { "\($0.0) \((try? $0.1.get().status) ?? 0)" }, ["waiter 200"])
        XCTAssertEqual(server.connectionCount, 2, "the cancelled connection was not reused")
    }

    func testCancellingAfterTheAnswerChangesNothing() throws {
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        let task = start(HTTPClientRequest(url: url("echo")), on: client, as: "done", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
        task.cancel()
        XCTAssertFalse(task.isCancelled)
        XCTAssertTrue(waitUntil(timeout: 10) { self.client.idleConnectionCount == 1 }, "the connection stays pooled")
        XCTAssertEqual(answers.count, 1)
    }

    // MARK: 4. Deadlines

    /// A deadline passed already fails at once, before any connection is opened: the pool is
    /// never asked to open one (its opener would read the host first, on the loop).
    func testADeadlineInThePastFailsAtOnceWithoutConnecting() throws {
        let opened = Recorder<String>()
        let resolver = HostResolver(literal: { host, port in
            opened.append(host)
            return try? SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true)
        }, lookUp: { _, _ throws(SocketError) in [] })
        let group = try EventLoopGroup(count: 1, label: "PoolLifecycleRulesTests")
        let pastClient = HTTPClient(configuration: .init(idleTimeout: .seconds(5)), loops: group, resolver: resolver)
        let request = HTTPClientRequest(url: url("echo"), deadline: .now - .seconds(1))
        let result = try Self.executeWithCompletion(request, on: pastClient)
        guard case .failure(.timedOut(.overall, let after, "127.0.0.1", _)) = result else { return XCTFail("expected .timedOut(.overall), got \(result)") }
        XCTAssertEqual(after, .zero, "no time of its own")
        let drained = DispatchSemaphore(value: 0)
        group.loops[0].execute { drained.signal() }
        XCTAssertEqual(drained.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(opened.values, [], "no connection was opened for a request past its deadline")
        XCTAssertEqual(pastClient.idleConnectionCount, 0)
    }

    /// The overall deadline shorter than the idle timeout wins while the answer is awaited; the
    /// idle timeout shorter than the deadline wins the other way.
    func testTheEarlierOfTheIdleTimeoutAndTheDeadlineWins() throws {
        let overall = try executeWithCompletion(HTTPClientRequest(url: url("hang"), idleTimeout: .seconds(3), deadline: .now + .milliseconds(200)))
        guard case .failure(.timedOut(.overall, _, _, _)) = overall else { return XCTFail("expected .timedOut(.overall), got \(overall)") }
        let idle = try executeWithCompletion(HTTPClientRequest(url: url("hang"), idleTimeout: .milliseconds(200), deadline: .now + .seconds(3)))
        guard case .failure(.timedOut(.idle, _, _, _)) = idle else { return XCTFail("expected .timedOut(.idle), got \(idle)") }
    }

    /// A client whose host name takes `lookup` to resolve (to the test's server).
    func slowLookupClient(_ configuration: HTTPClient.Configuration, lookup: Duration,
                          lookups: Recorder<String> = Recorder()) throws -> (HTTPClient, EventLoopGroup) {
        let port = server.port
        let resolver = HostResolver(literal: { _, _ in nil }, lookUp: { host, _ throws(SocketError) in
            lookups.append(host)
            Thread.sleep(forTimeInterval: lookup / .seconds(1))
            return try SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true)
        })
        let group = try EventLoopGroup(count: 1, label: "PoolLifecycleRulesTests")
        return (HTTPClient(configuration: configuration, loops: group, resolver: resolver), group)
    }

    /// With an overall deadline set, a connect slower than `connectTimeout` still fails as
    /// `.timedOut(.connect)` (the pool's connect has its own bound); an overall deadline shorter
    /// than the connect timeout fails as `.timedOut(.overall)`.
    func testTheConnectTimeoutAndTheOverallDeadlineEachFailWithTheirOwnKind() throws {
        let (connectFirst, group) = try slowLookupClient(.init(connectTimeout: .milliseconds(200), overallDeadline: .seconds(5)), lookup: .seconds(1))
        let slowURL = try XCTUnwrap(URL(string: "http://slow.test:\(server.port)/echo"))
        let began = ContinuousClock.now
        let connect = try Self.executeWithCompletion(HTTPClientRequest(url: slowURL), on: connectFirst)
        guard case .failure(.timedOut(.connect, let after, _, _)) = connect else { return XCTFail("expected .timedOut(.connect), got \(connect)") }
        XCTAssertEqual(after, .milliseconds(200))
        XCTAssertLessThan(ContinuousClock.now - began, .seconds(3))
        let (overallFirst, _) = try slowLookupClient(.init(connectTimeout: .seconds(5), overallDeadline: .milliseconds(200)), lookup: .seconds(1))
        let overall = try Self.executeWithCompletion(HTTPClientRequest(url: slowURL), on: overallFirst)
        guard case .failure(.timedOut(.overall, _, _, _)) = overall else { return XCTFail("expected .timedOut(.overall), got \(overall)") }
        _ = group
    }

    // MARK: 5. A client let go

    /// The threads of this process whose name is a client's own loop's (`HTTPClient.N`).
    static func loopThreads(named prefix: String = "HTTPClient.") -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix(prefix)
        }.count
    }

    /// A client on loops of its own, let go with a connection in its pool: the connection is
    /// closed (the server sees it) and the loops' threads end.
    func testAClientOnItsOwnLoopsLetGoClosesItsConnectionsAndStopsItsThreads() throws {
        XCTAssertEqual(Self.loopThreads(), 0)
        var own: HTTPClient? = HTTPClient(configuration: .init(idleTimeout: .seconds(5), eventLoopCount: 2))
        XCTAssertTrue(waitUntil(timeout: 10) { Self.loopThreads() == 2 }, "the client's loops run")
        XCTAssertEqual(try Self.executeWithCompletion(HTTPClientRequest(url: url("echo")), on: try XCTUnwrap(own)).get().status, 200)
        XCTAssertEqual(own?.idleConnectionCount, 1)
        own = nil
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the pooled connection was closed")
        XCTAssertTrue(waitUntil(timeout: 10) { Self.loopThreads() == 0 }, "the client's loops stopped")
    }

    /// A client let go (loops and all) while the connect of a cancelled request is under way:
    /// the connection it opens is closed once the pool is gone, and the loop stops.
    func testAClientLetGoWhileACancelledRequestsConnectRunsClosesThatConnection() throws {
        let lookups = Recorder<String>()
        var (own, group): (HTTPClient?, EventLoopGroup?) = try slowLookupClient(.init(connectTimeout: .seconds(5)), lookup: .milliseconds(300),
                                                                                 lookups: lookups)
        let slowURL = try XCTUnwrap(URL(string: "http://slow.test:\(server.port)/echo"))
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        var task: (any HTTPClientTask)? = start(HTTPClientRequest(url: slowURL), on: try XCTUnwrap(own), as: "cancelled", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { lookups.count == 1 }, "the connect started")
        XCTAssertEqual(Self.loopThreads(named: "PoolLifecycleRu"), 1)
        task?.cancel()
        // The handle holds the exchange, and the exchange the client's pool and loops.
        task = nil
        own = nil
        group = nil
        XCTAssertNil(group)
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.connectionCount == 1 }, "the connect went on")
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "and its connection was closed")
        XCTAssertTrue(waitUntil(timeout: 10) { Self.loopThreads(named: "PoolLifecycleRu") == 0 }, "the loop stopped")
        XCTAssertEqual(answers.count, 0)
    }

    /// A client let go while a request runs: the request still answers, and then everything is
    /// closed and stopped.
    func testAClientLetGoWhileARequestRunsStillAnswersItThenStops() throws {
        var own: HTTPClient? = HTTPClient(configuration: .init(idleTimeout: .seconds(5), eventLoopCount: 1))
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        start(HTTPClientRequest(url: url("delay/200")), on: try XCTUnwrap(own), as: "running", into: answers)
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.requestCount(path: "/delay/200") == 1 })
        own = nil
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
        XCTAssertEqual(try answers.values.first?.1.get().status, 200)
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the connection was closed")
        XCTAssertTrue(waitUntil(timeout: 10) { Self.loopThreads() == 0 }, "the client's loop stopped")
    }

    // MARK: 6. Keys

    /// RFC 9110 §4.2.3: a host name is case-insensitive, so `SLOW.test` and `slow.test` are one
    /// host: one pool, one limit, one kept connection (as curl and urllib3 compare them).
    func testAHostNameSpelledInAnotherCaseIsTheSameHostForThePool() throws {
        let (caseClient, group) = try slowLookupClient(.init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(5)), lookup: .zero)
        let answers = Recorder<(String, Result<HTTPClientResponse, HTTPClientError>)>()
        for (index, host) in ["slow.test", "SLOW.test", "Slow.Test", "slow.TEST"].enumerated() {
            let url = try XCTUnwrap(URL(string: "http://\(host):\(server.port)/delay/100"))
            start(HTTPClientRequest(url: url), on: caseClient, as: "\(index)", into: answers)
        }
        var most = 0
        XCTAssertTrue(waitUntil(timeout: 20) {
            most = max(most, self.server.openConnectionCount)
            return answers.count == 4
        })
        XCTAssertEqual(answers.values.filter { (try? $0.1.get().status) == 200 }.count, 4)
        XCTAssertEqual(most, 1, "one connection at a time to the one host")
        XCTAssertEqual(server.connectionCount, 1, "the kept connection served every spelling")
        XCTAssertEqual(caseClient.idleConnectionCount, 1)
        caseClient.closeIdleConnections()
        _ = group
    }

    /// An `http` and an `https` request to the same host and port never share a connection.
    func testHTTPAndHTTPSToOneHostAndPortNeverShareAConnection() throws {
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200)
        XCTAssertEqual(client.idleConnectionCount, 1)
        let secure = try XCTUnwrap(URL(string: "https://127.0.0.1:\(server.port)/echo"))
        let result = try executeWithCompletion(HTTPClientRequest(url: secure))
        if case .success = result { XCTFail("an https request was answered over the plain connection") }
        XCTAssertEqual(server.connectionCount, 2, "the https request opened its own connection")
    }
}
