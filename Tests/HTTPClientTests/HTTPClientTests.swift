import FeedServer
import Foundation
import HTTPClient
import EventLoopIO
import TestSupport
import XCTest

/// `HTTPClient` used alone, without a provider, against a `FeedServer` on 127.0.0.1: both entry
/// points, cancellation, typed failures from real sockets and real (short) deadlines, and
/// answers that never run on a loop thread.
final class HTTPClientTests: HTTPClientTestCase {
    func testExecuteReturnsTheResponseOffTheLoopsAndPoolsTheConnection() throws {
        var request = HTTPClientRequest(url: url("echo?q=1"), method: "post", body: .bytes(Data("hello".utf8)))
        request.headers["X-Probe"] = "yes"
        let (result, onLoop) = try executeAsync(request)
        let response = try result.get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.url, url("echo?q=1"))
        XCTAssertNil(response.fileURL)
        let echoed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(echoed["method"] as? String, "POST")
        XCTAssertEqual(echoed["body"] as? String, Data("hello".utf8).base64EncodedString())
        XCTAssertEqual((echoed["headers"] as? [String: String])?["x-probe"] ?? (echoed["headers"] as? [String: String])?["X-Probe"], "yes")
        XCTAssertFalse(onLoop, "the code after `await` does not run on a loop thread")
        XCTAssertEqual(client.idleConnectionCount, 1, "the kept-alive connection went back to the pool")
        XCTAssertEqual(try executeAsync(HTTPClientRequest(url: url("echo"))).0.get().status, 200)
        XCTAssertEqual(server.connectionCount, 1, "the second request reused the connection")
    }

    func testTheCompletionRunsOnTheDeliveryQueueNeverOnALoop() throws {
        let queue = DispatchQueue(label: "HTTPClientTests.delivery")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 27)
        client = HTTPClient(deliveryQueue: queue)
        let seen = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        client.execute(HTTPClientRequest(url: url("echo"))) { result in
            seen.append("status \((try? result.get())?.status ?? -1)")
            seen.append("on a loop: \(Self.onALoop())")
            seen.append("on the delivery queue: \(DispatchQueue.getSpecific(key: key) == 27)")
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(seen.values, ["status 200", "on a loop: false", "on the delivery queue: true"])
    }

    func testProgressRunsOnTheDeliveryQueueInOrderBeforeTheCompletion() throws {
        let queue = DispatchQueue(label: "HTTPClientTests.progress")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 4)
        client = HTTPClient(deliveryQueue: queue)
        let events = Recorder<String>()
        let misplaced = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        var request = HTTPClientRequest(url: url("bytes/300000"))
        request.downloadProgress = { fraction in
            if DispatchQueue.getSpecific(key: key) != 4 || Self.onALoop() { misplaced.append("progress \(fraction)") }
            events.append("progress \(fraction)")
        }
        client.execute(request) { result in
            if DispatchQueue.getSpecific(key: key) != 4 { misplaced.append("completion") }
            events.append("completion \((try? result.get())?.body.count ?? -1)")
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(misplaced.values, [], "every closure ran on the delivery queue")
        let all = events.values
        XCTAssertGreaterThanOrEqual(all.count, 2, "progress came: \(all)")
        XCTAssertEqual(all.last, "completion 300000")
        XCTAssertEqual(all.dropLast().last, "progress 1.0", "the last progress before the completion")
    }

    func testTheDefaultDeliveryQueueIsNotALoopEither() throws {
        let onLoop = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        client.execute(HTTPClientRequest(url: url("echo"))) { _ in
            onLoop.append(Self.onALoop())
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(onLoop.values, [false])
    }

    /// Cancelling closes the connection and reports nothing: the next answer on the same serial
    /// delivery queue comes after anything the cancelled exchange could have queued before its
    /// connection closed.
    func testCancelClosesTheConnectionAndReportsNothing() throws {
        let cancelledAnswers = Recorder<String>()
        let task = client.execute(HTTPClientRequest(url: url("hang"))) { result in cancelledAnswers.append("\(result)") }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/hang") == 1 })
        XCTAssertFalse(task.isCancelled)
        task.cancel()
        XCTAssertTrue(task.isCancelled)
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server sees the connection closed")
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200)
        XCTAssertEqual(cancelledAnswers.values, [], "the cancelled exchange reported nothing")
        XCTAssertEqual(server.connectionCount, 2, "the cancelled connection was not reused")
    }

    func testCancellingTheCallingTaskThrowsCancelledAndClosesTheConnection() throws {
        let (result, onLoop) = try executeAsync(HTTPClientRequest(url: url("hang"))) {
            self.server.requestCount(path: "/hang") == 1
        }
        guard case .failure(.cancelled) = result else { return XCTFail("expected .cancelled, got \(result)") }
        XCTAssertFalse(onLoop)
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the exchange's connection was closed")
        XCTAssertEqual(client.idleConnectionCount, 0)
    }

    func testARefusedPortIsCannotConnectWithItsHostPortAndErrno() throws {
        let port = server.port
        server.stop()
        let result = try executeWithCompletion(HTTPClientRequest(url: url("echo")))
        guard case .failure(.cannotConnect(let host, let failedPort, let number)) = result else {
            return XCTFail("expected .cannotConnect, got \(result)")
        }
        XCTAssertEqual(host, "127.0.0.1")
        XCTAssertEqual(failedPort, Int(port))
        XCTAssertEqual(number, ECONNREFUSED)
    }

    func testAnIdleTimeoutNamesItsDeadlineAndEndpoint() throws {
        client = HTTPClient(configuration: .init(idleTimeout: .milliseconds(300)))
        let (result, _) = try executeAsync(HTTPClientRequest(url: url("hang")))
        guard case .failure(.timedOut(let deadline, let after, let host, let port)) = result else {
            return XCTFail("expected .timedOut, got \(result)")
        }
        XCTAssertEqual(deadline, .idle)
        XCTAssertEqual(after, .milliseconds(300))
        XCTAssertEqual(host, "127.0.0.1")
        XCTAssertEqual(port, Int(server.port))
    }

    func testARequestsIdleTimeoutReplacesTheConfiguredOne() throws {
        let result = try executeWithCompletion(HTTPClientRequest(url: url("hang"), idleTimeout: .milliseconds(200)))
        guard case .failure(.timedOut(.idle, let after, _, _)) = result else { return XCTFail("expected .timedOut(.idle), got \(result)") }
        XCTAssertEqual(after, .milliseconds(200))
    }

    func testTheOverallDeadlineIsItsOwnKind() throws {
        client = HTTPClient(configuration: .init(idleTimeout: .seconds(5), overallDeadline: .milliseconds(400)))
        let result = try executeWithCompletion(HTTPClientRequest(url: url("hang")))
        guard case .failure(.timedOut(.overall, let after, "127.0.0.1", let port)) = result else {
            return XCTFail("expected .timedOut(.overall), got \(result)")
        }
        XCTAssertEqual(after, .milliseconds(400))
        XCTAssertEqual(port, Int(server.port))
    }

    /// Over plain HTTP the end of the stream is the only close there is: a body delimited by it
    /// ends there, whole or cut (only TLS's `close_notify` can tell them apart).
    func testAPlainCloseDelimitedBodyEndsAtTheEndOfTheStream() throws {
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("until-close/5000"))).get().body.count, 5_000)
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("until-close/5000/1200"))).get().body.count, 1_200)
    }

    func testAnotherSchemeIsUnsupported() throws {
        let ftp = try XCTUnwrap(URL(string: "ftp://127.0.0.1:\(server.port)/echo"))
        let result = try executeWithCompletion(HTTPClientRequest(url: ftp))
        guard case .failure(.unsupportedScheme(let url)) = result else { return XCTFail("expected .unsupportedScheme, got \(result)") }
        XCTAssertEqual(url, ftp)
        XCTAssertEqual(server.requestCount, 0)
    }
}
