import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import PhotoFeed
import Reactive
import TestSupport
import XCTest

/// Many threads asking for and dropping thumbnails at once: the loader never runs more than its
/// limit of requests, every subscription ends, and nothing leaks.
final class ThumbnailLoaderStressTests: LeakCheckingTestCase {
    /// Answers each request on a global queue a little later with a tiny JPEG; tracks the most in flight.
    private final class CountingTransport: HTTPTransport {
        private let state = Lock<(inFlight: Int, most: Int, sent: Int)>((0, 0, 0))
        private let jpeg = Data(BaselineJPEGEncoder().encode(width: 8, height: 8, rgb: [UInt8](repeating: 90, count: 192)))

        var most: Int { state.withLock { $0.most } }
        var sent: Int { state.withLock { $0.sent } }
        var inFlight: Int { state.withLock { $0.inFlight } }

        func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
                  completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
            state.withLock { state in
                state.inFlight += 1
                state.sent += 1
                state.most = max(state.most, state.inFlight)
            }
            let call = ScheduledCall()
            let finished = Lock(false)
            let end: @Sendable () -> Bool = { [self] in
                let first = finished.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { state.withLock { $0.inFlight -= 1 } }
                return first
            }
            call.onCancel { _ = end() }
            let body = jpeg
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 50...2_000))) {
                if end() { completion(.success(Response(statusCode: 200, data: body, request: request))) }
            }
            return call
        }
    }

    func testStressManyThreadsLoadAndDisposeWithinTheLimit() {
        let transport = CountingTransport()
        let provider = NetworkProvider<PhotoImage>(transport: transport, trackInflights: true,
                                                   scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let loader = ThumbnailLoader(provider: provider, maximumConcurrentLoads: 3, memoryLimit: 4_096)
        let answered = Recorder<Bool>()
        let group = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<60 {
                let number = (thread * 7 + index) % 40
                let item = Photo.Item(title: "", link: "l\(number)", media: .init(m: "http://images.test/\(number).jpg"),
                                      author: "", authorID: "", published: "", tags: "", description: "")
                group.enter()
                let subscription = loader.thumbnail(for: item, maxPixelSize: 4).subscribe(onSuccess: { _ in answered.append(true) },
                                                                                          onFailure: { _ in answered.append(false) },
                                                                                          onDisposed: { group.leave() })
                if index % 3 == 0 { subscription.dispose() }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success, "every subscription ended")
        XCTAssertLessThanOrEqual(transport.most, 3, "never more than the limit in flight")
        XCTAssertGreaterThan(transport.sent, 0)
        XCTAssertFalse(answered.values.contains(false), "no load failed")
        XCTAssertGreaterThanOrEqual(answered.count, 8 * 40)
        XCTAssertTrue(waitUntil { transport.inFlight == 0 && loader.waitingLoads == 0 })
    }
}
