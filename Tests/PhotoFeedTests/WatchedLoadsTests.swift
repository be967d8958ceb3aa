import Foundation
import Networking
import PhotoFeed
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// `watchedLoads` and `loadResult` on a stubbed provider in virtual time: one tick is one second.
final class WatchedLoadsTests: LeakCheckingTestCase {
    private func makeStore(_ script: ScriptedFeed, scheduler: TestScheduler, delay: Duration) -> PhotoFeedStore {
        PhotoFeedStore(provider: NetworkProvider<FlickrAPI>(endpointClosure: script.endpointClosure,
                                                            stubClosure: NetworkProvider.delayedStub(delay),
                                                            scheduler: scheduler))
    }

    private static func describe(_ result: Result<Photo, any Error>) -> String {
        switch result {
        case .success(let photo): "photos \(photo.items.count)"
        case .failure(let error): "failed \((error as? APIError)?.statusCode.map(String.init) ?? "\(error)")"
        }
    }

    func testAFailedLoadIsAResultAndTheWatchGoesOn() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([.networkResponse(200, feedData([1, 2])), .networkResponse(503, Data()),
                                   .networkResponse(200, feedData([3]))])
        let store = makeStore(script, scheduler: scheduler, delay: .seconds(2))
        let res = scheduler.start(created: 0, subscribed: 100, disposed: 125) {
            store.watchedLoads(every: .seconds(10), scheduler: scheduler, startImmediately: true) { PhotoRequest() }
                .map(Self.describe)
        }
        XCTAssertEqual(res.events, [.next(102, "photos 2"), .next(112, "failed 503"), .next(122, "photos 1")])
        XCTAssertEqual(store.sections.value.map(\.items.count), [2, 1], "the failure appended nothing")
        XCTAssertEqual(script.requestedURLs.count, 3, "a load at 100, 110 and 120")
    }

    func testANewTickCancelsALoadStillRunning() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([.networkResponse(200, feedData([1])), .networkResponse(200, feedData([2]))])
        let store = makeStore(script, scheduler: scheduler, delay: .seconds(15))
        let res = scheduler.start(created: 0, subscribed: 100, disposed: 140) {
            store.watchedLoads(every: .seconds(10), scheduler: scheduler) { PhotoRequest() }.map(Self.describe)
        }
        XCTAssertEqual(res.events, [], "each load needs 15 s and the next tick comes after 10 s")
        XCTAssertEqual(script.requestedURLs.count, 3, "ticks at 110, 120 and 130 each started a load")
        XCTAssertEqual(store.sections.value, [])
    }
}
