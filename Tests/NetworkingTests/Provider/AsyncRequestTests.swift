import FeedServer
import EventLoopIO
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// `request(_:) async` over the default transport against the loopback `FeedServer`: the run
/// resumes the awaiting task itself; cancelling the task cancels the request as `cancel()` does
/// and throws `CancellationError`, as `rx.request(_:).value` did.
final class AsyncRequestTests: FeedServerTestCase {
    /// Runs `request` in a task and waits (bounded) for what it returns or throws.
    private func outcome(
        _ cancel: (Task<Response, any Error>) -> Void = { _ in },
        of request: @escaping @Sendable () async throws -> Response
    ) -> Result<Response, any Error>? {
        let outcome = Recorder<Result<Response, any Error>>()
        let task = Task { try await request() }
        Task {
            do { outcome.append(.success(try await task.value)) } catch { outcome.append(.failure(error)) }
        }
        cancel(task)
        XCTAssertTrue(waitUntil(timeout: 20) { outcome.count == 1 }, "the task ends")
        return outcome.values.first
    }

    func testTheAnswerOfARealServerIsReturned() throws {
        let provider = NetworkProvider<ServerRoute>()
        let target = route("echo")
        let response = try XCTUnwrap(outcome { try await provider.request(target) }).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try response.map(Echo.self).path, "/echo")
    }

    /// Awaited with no plugins, the answer is finished where it arrives, on an event loop's
    /// thread: the target's `validationType` must have been read before, on the caller's.
    func testAnAwaitedAnswerIsValidatedWithoutRunningTheTargetsCodeOnALoop() throws {
        let reads = Recorder<Bool>()
        let provider = NetworkProvider<ValidatingRoute>()
        let target = ValidatingRoute(baseURL: server.baseURL, path: "no-such-route", reads: reads)
        guard case .failure(let error)? = outcome(of: { try await provider.request(target) }) else {
            return XCTFail("expected a failure")
        }
        guard case .statusCode(let response)? = error as? ProviderError else { return XCTFail("\(error)") }
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(reads.values, [false], "read once, off the loops")
        let echo = ValidatingRoute(baseURL: server.baseURL, path: "echo", reads: reads)
        XCTAssertEqual(try XCTUnwrap(outcome { try await provider.request(echo) }).get().statusCode, 200)
        XCTAssertEqual(reads.values, [false, false])
    }

    /// A task that prefers the transport's loops (`SocketTransport.taskExecutor`) goes on after
    /// each awaited request on the loop where its answer arrived, plugins or none; without the
    /// preference it goes on off the loops.
    func testATaskPreferringTheTransportsLoopsGoesOnThere() throws {
        let plain = NetworkProvider<ServerRoute>()
        let withPlugin = NetworkProvider<ServerRoute>(plugins: [NetworkActivityPlugin(networkActivityClosure: { _, _ in })])
        let target = route("echo")
        for (provider, executor) in [(plain, SocketTransport.shared.taskExecutor), (withPlugin, SocketTransport.shared.taskExecutor),
                                     (plain, nil)] {
            let places = Recorder<Result<Bool, any Error>>()
            Task(executorPreference: executor) {
                for _ in 0..<5 {
                    do {
                        let response = try await provider.request(target)
                        places.append(.success(response.statusCode == 200 && EventLoop.isOnAnyLoopThread))
                    } catch {
                        places.append(.failure(error))
                    }
                }
            }
            XCTAssertTrue(waitUntil(timeout: 20) { places.count == 5 }, "the task ends")
            let onLoops = try places.values.map { try $0.get() }
            XCTAssertEqual(onLoops, Array(repeating: executor != nil, count: 5))
        }
        XCTAssertEqual(server.requestCount(path: "/echo"), 15)
    }

    func testARefusedPortThrowsTheProvidersError() throws {
        let port = server.port
        server.stop()
        let provider = NetworkProvider<ServerRoute>()
        let target = ServerRoute(baseURL: URL(string: "http://127.0.0.1:\(port)/")!, path: "echo")
        guard case .failure(let error)? = outcome(of: { try await provider.request(target) }) else {
            return XCTFail("expected a failure")
        }
        let providerError = try XCTUnwrap(error as? ProviderError, "\(error)")
        XCTAssertTrue(providerError.isNotConnection, "\(providerError)")
    }

    func testCancellingTheTaskMidRequestThrowsCancellationAndClosesTheConnection() {
        let spy = CancellationTests.Spy()
        let provider = NetworkProvider<ServerRoute>(plugins: [spy])
        let target = route("hang")
        let result = outcome({ task in
            XCTAssertTrue(waitUntil { self.server.requestCount(path: "/hang") == 1 }, "the request reached the server")
            task.cancel()
        }, of: { try await provider.request(target) })
        guard case .failure(let error)? = result else { return XCTFail("expected a failure, got \(String(describing: result))") }
        XCTAssertTrue(error is CancellationError, "\(error)")
        XCTAssertTrue(waitUntil { spy.events.count == 2 })
        XCTAssertEqual(spy.events.values, ["willSend", "cancelled"], "plugins see the cancellation, as Moya's")
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server sees the connection closed")
    }

    func testATaskCancelledAlreadySendsNothing() {
        let spy = CancellationTests.Spy()
        let provider = NetworkProvider<ServerRoute>(plugins: [spy])
        let target = route("echo")
        let (gate, _) = AsyncStream<Void>.makeStream()
        let result = outcome({ $0.cancel() }, of: {
            // Waits for the cancel: a cancelled task's iteration of the stream ends at once.
            for await _ in gate {}
            return try await provider.request(target)
        })
        guard case .failure(let error)? = result else { return XCTFail("expected a failure, got \(String(describing: result))") }
        XCTAssertTrue(error is CancellationError, "\(error)")
        XCTAssertEqual(server.requestCount(path: "/echo"), 0)
        XCTAssertEqual(spy.events.values, [], "nothing was built or sent")
    }

    func testTheProvidersRequestTimeoutApplies() {
        let provider = NetworkProvider<ServerRoute>(requestTimeout: .milliseconds(300))
        let target = route("hang")
        guard case .failure(let error)? = outcome(of: { try await provider.request(target) }) else {
            return XCTFail("expected a failure")
        }
        XCTAssertEqual(error as? ReactiveError, .timeout)
    }
}

/// A target validating `successCodes` that records, each time its `validationType` is read,
/// whether the reading thread is an event loop's.
private struct ValidatingRoute: TargetType {
    let baseURL: URL
    let path: String
    let reads: Recorder<Bool>
    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType {
        reads.append(EventLoop.isOnAnyLoopThread)
        return .successCodes
    }
}
