import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// `cancel()` racing the answer from another thread: every request reports exactly once, and
/// plugins see exactly one end per request.
final class CancellationStressTests: LeakCheckingTestCase {
    /// Answers on a global queue after a tiny random delay.
    private struct RacingTransport: HTTPTransport {
        /// One entry per answer whose completion has returned.
        let answered = Recorder<Int>()

        func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
                  completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...300))) { [answered] in
                completion(.success(Response(statusCode: 200, data: Data(), request: request)))
                answered.append(1)
            }
            return Handle()
        }

        struct Handle: Cancellable {
            var isCancelled: Bool { false }
            func cancel() {}
        }
    }

    private final class Ends: PluginType {
        let count = Recorder<Int>()
        func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) { count.append(1) }
    }

    func testStressCancelRacingTheAnswerReportsExactlyOnce() {
        let ends = Ends()
        let transport = RacingTransport()
        let provider = NetworkProvider<ServerRoute>(transport: transport, plugins: [ends])
        let target = ServerRoute(baseURL: URL(string: "http://127.0.0.1:9/")!, path: "race")
        let outcomes = Recorder<String>()
        let requests = 400
        DispatchQueue.concurrentPerform(iterations: requests) { index in
            let call = provider.request(target) { result in
                switch result {
                case .success(let response): outcomes.append(response.statusCode == 200 ? "answered" : "status \(response.statusCode)")
                case .failure(let error): outcomes.append(error.isCancelled ? "cancelled" : "failed: \(error)")
                }
            }
            if index % 2 == 0 { usleep(UInt32.random(in: 0...300)) }
            call.cancel()
        }
        // Each report is made inside cancel(), which returned with concurrentPerform, or inside
        // the transport's completion (no loop thread, no callback queue): once every completion
        // has returned, every report has been made.
        XCTAssertTrue(waitUntil(timeout: 10) { transport.answered.count == requests })
        XCTAssertEqual(outcomes.count, requests, "one report per request")
        XCTAssertEqual(ends.count.count, requests, "one didReceive per request")
        let unexpected = outcomes.values.filter { $0 != "cancelled" && $0 != "answered" }
        XCTAssertEqual(unexpected, [], "a request either got the answer or was cancelled, never another error")
    }
}
