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
        func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
                  completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...300))) {
                completion(.success(Response(statusCode: 200, data: Data(), request: request)))
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
        let provider = NetworkProvider<ServerRoute>(transport: RacingTransport(), plugins: [ends])
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
        XCTAssertTrue(waitUntil(timeout: 10) { outcomes.count >= requests })
        RunLoop.current.run(until: Date().addingTimeInterval(0.1))
        XCTAssertEqual(outcomes.count, requests, "one report per request")
        XCTAssertEqual(ends.count.count, requests, "one didReceive per request")
        let unexpected = outcomes.values.filter { $0 != "cancelled" && $0 != "answered" }
        XCTAssertEqual(unexpected, [], "a request either got the answer or was cancelled, never another error")
    }
}
