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
            let body = ThumbnailLoaderStressTests.jpeg
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 50...2_000))) {
                if end() { completion(.success(Response(statusCode: 200, data: body, request: request))) }
            }
            return call
        }
    }

    /// The tiny picture every request here is answered with.
    fileprivate static let jpeg = Data(BaselineJPEGEncoder().encode(width: 8, height: 8, rgb: [UInt8](repeating: 90, count: 192)))

    private func item(_ name: String) -> Photo.Item {
        Photo.Item(title: "", link: name, media: .init(m: "http://images.test/\(name)"),
                   author: "", authorID: "", published: "", tags: "", description: "")
    }

    /// A waiting load starts on the thread that freed its slot. Disposed from its own thread while
    /// that start is still sending the request, it keeps the slot until the request is cancelled:
    /// the next load waits for the cancel, so the limit holds.
    func testALoadDisposedWhileItsRequestIsBeingSentKeepsItsSlotUntilCancelled() {
        let transport = HoldingTransport(holding: "a.jpg") { $0.url?.lastPathComponent ?? "" }
        let loader = ThumbnailLoader(provider: NetworkProvider<PhotoImage>(transport: transport),
                                     maximumConcurrentLoads: 1, memoryLimit: 0)
        let answered = Recorder<String>()
        let running = loader.thumbnail(for: item("x.jpg"), maxPixelSize: 4).subscribe { _ in answered.append("x") }
        let waiting = loader.thumbnail(for: item("a.jpg"), maxPixelSize: 4).subscribe { _ in answered.append("a") }
        XCTAssertEqual(loader.waitingLoads, 1)
        // x's answer frees the slot on another thread, which starts a and blocks in its send
        DispatchQueue.global().async { transport.answer("x.jpg", with: Self.jpeg) }
        XCTAssertEqual(transport.entered.wait(timeout: .now() + 5), .success, "a's request is being sent")
        waiting.dispose()
        let next = loader.thumbnail(for: item("b.jpg"), maxPixelSize: 4).subscribe { _ in answered.append("b") }
        XCTAssertEqual(transport.sent, ["x.jpg", "a.jpg"], "b waits while a's request is still out")
        XCTAssertEqual(loader.waitingLoads, 1)
        transport.release.signal()
        XCTAssertTrue(waitUntil { transport.sent == ["x.jpg", "a.jpg", "b.jpg"] }, "b starts once a's request is cancelled")
        XCTAssertEqual(transport.most, 1, "never more than the limit in flight")
        transport.answer("b.jpg", with: Self.jpeg)
        XCTAssertTrue(waitUntil { answered.count == 2 })
        XCTAssertEqual(Set(answered.values), ["x", "b"], "the disposed load reports nothing")
        running.dispose()
        next.dispose()
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
