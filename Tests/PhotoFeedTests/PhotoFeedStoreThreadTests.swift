import Foundation
import Networking
import PhotoFeed
import Reactive
import TestSupport
import XCTest

/// The store's queue when loads start and end on different threads, through a transport the
/// test answers by hand.
final class PhotoFeedStoreThreadTests: LeakCheckingTestCase {
    /// A waiting load starts on the thread whose load just answered. Disposed from its own thread
    /// while that start is still sending its request, it holds the queue until the request is
    /// cancelled: the next load waits, so loads still run one at a time.
    func testALoadDisposedWhileItsRequestIsBeingSentHoldsTheQueueUntilCancelled() {
        let transport = HoldingTransport(holding: "a") { request in
            request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
                .queryItems?.first { $0.name == "tags" }?.value ?? ""
        }
        let store = PhotoFeedStore(provider: NetworkProvider<FlickrAPI>(transport: transport))
        let answered = Recorder<String>()
        let running = store.load(PhotoRequest(tags: "x")).subscribe { _ in answered.append("x") }
        let waiting = store.load(PhotoRequest(tags: "a")).subscribe { _ in answered.append("a") }
        // x's answer ends its load on another thread, which starts a and blocks in its send
        DispatchQueue.global().async { transport.answer("x", with: feedData([1])) }
        XCTAssertEqual(transport.entered.wait(timeout: .now() + 5), .success, "a's request is being sent")
        waiting.dispose()
        let next = store.load(PhotoRequest(tags: "b")).subscribe { _ in answered.append("b") }
        XCTAssertEqual(transport.sent, ["x", "a"], "b waits while a's request is still out")
        transport.release.signal()
        XCTAssertTrue(waitUntil { transport.sent == ["x", "a", "b"] }, "b starts once a's request is cancelled")
        XCTAssertEqual(transport.most, 1, "one load at a time")
        transport.answer("b", with: feedData([2]))
        XCTAssertTrue(waitUntil { answered.count == 2 })
        XCTAssertEqual(answered.values, ["x", "b"], "the disposed load reports nothing")
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1]), links([2])])
        running.dispose()
        next.dispose()
    }
}
