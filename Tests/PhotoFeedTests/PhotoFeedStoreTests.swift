import Foundation
import Networking
import PhotoFeed
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// The store on a stubbed provider in virtual time: one tick is one second.
final class PhotoFeedStoreTests: LeakCheckingTestCase {
    private struct Outcome: Sendable {
        let time: Int
        let result: Result<Photo, any Error>

        var links: [String]? { try? result.get().items.map(\.link) }
        var error: (any Error)? {
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    private func makeStore(
        _ script: ScriptedFeed, scheduler: TestScheduler, delay: Duration = .seconds(10),
        timeout: Duration? = nil, deduplicates: Bool = true
    ) -> PhotoFeedStore {
        let provider = NetworkProvider<FlickrAPI>(endpointClosure: script.endpointClosure,
                                                  stubClosure: NetworkProvider.delayedStub(delay),
                                                  scheduler: scheduler,
                                                  requestTimeout: timeout)
        return PhotoFeedStore(provider: provider, deduplicates: deduplicates)
    }

    /// Subscribes a load of `store` at each of `times` and records what each answers, with its tick.
    private func load(_ store: PhotoFeedStore, at times: [Int], on scheduler: TestScheduler) -> Recorder<Outcome> {
        let outcomes = Recorder<Outcome>()
        for time in times {
            scheduler.scheduleAt(time) {
                _ = store.load().subscribe { result in
                    outcomes.append(Outcome(time: scheduler.clock, result: result))
                }
            }
        }
        return outcomes
    }

    func testLoadAppendsOneSectionAndPublishesItsChangeset() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([.networkResponse(200, feedData([1, 2, 3]))])
        let store = makeStore(script, scheduler: scheduler)
        let changes = Recorder<Changeset>()
        let subscription = store.changes.subscribe(onNext: { changes.append($0) })
        defer { subscription.dispose() }

        let outcomes = load(store, at: [0], on: scheduler)
        scheduler.advanceTo(9)
        XCTAssertEqual(outcomes.count, 0)
        XCTAssertEqual(store.sections.value, [])
        scheduler.start()

        XCTAssertEqual(outcomes.values.map(\.time), [10])
        XCTAssertEqual(outcomes.values.first?.links, links([1, 2, 3]))
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1, 2, 3])])
        XCTAssertEqual(changes.values.map(\.insertedSections), [[0]])
        XCTAssertEqual(changes.values.first?.apply(to: []), store.sections.value)
    }

    func testTheRequestIsTheFlickrFeedWithTheDefaultQuery() throws {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([.networkResponse(200, feedData([1]))])
        let store = makeStore(script, scheduler: scheduler)
        _ = load(store, at: [0], on: scheduler)
        scheduler.start()

        let url = try XCTUnwrap(script.requestedURLs.first)
        let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        XCTAssertEqual(components.host, "api.flickr.com")
        XCTAssertEqual(components.path, "/services/feeds/photos_public.gne")
        let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        XCTAssertEqual(query, ["tags": "landscape, portrait", "tagmode": "any", "format": "json", "nojsoncallback": "1"])
    }

    func testLoadLeavesOutPhotosAlreadyShown() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1, 2, 3])),
            .networkResponse(200, feedData([3, 4, 2, 5, 4])),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let outcomes = load(store, at: [0, 20], on: scheduler)
        scheduler.start()

        XCTAssertEqual(outcomes.values.map(\.time), [10, 30])
        XCTAssertEqual(outcomes.values.last?.links, links([3, 4, 2, 5, 4]), "the Single answers the whole page")
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1, 2, 3]), links([4, 5])])
    }

    func testWithoutDeduplicationEveryPageIsAppendedWhole() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1, 2])),
            .networkResponse(200, feedData([2, 1])),
        ])
        let store = makeStore(script, scheduler: scheduler, deduplicates: false)
        _ = load(store, at: [0, 20], on: scheduler)
        scheduler.start()

        XCTAssertEqual(sectionLinks(store.sections.value), [links([1, 2]), links([2, 1])])
    }

    func testAPageWithNothingNewAppendsNoSectionAndPublishesNothing() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1, 2])),
            .networkResponse(200, feedData([2, 1])),
            .networkResponse(200, feedData([])),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let changes = Recorder<Changeset>()
        let subscription = store.changes.subscribe(onNext: { changes.append($0) })
        defer { subscription.dispose() }
        let outcomes = load(store, at: [0, 20, 40], on: scheduler)
        scheduler.start()

        XCTAssertEqual(outcomes.values.map { $0.error == nil }, [true, true, true], "loads with nothing new still succeed")
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1, 2])])
        XCTAssertEqual(changes.count, 1)
    }

    func testAServerErrorFailsWithItsClassificationAndLeavesTheSectionsAlone() throws {
        let scheduler = TestScheduler()
        let body = Data(#"{"code":"E503","message":"try later"}"#.utf8)
        let script = ScriptedFeed([.networkResponse(200, feedData([1])), .networkResponse(503, body)])
        let store = makeStore(script, scheduler: scheduler)
        let changes = Recorder<Changeset>()
        let subscription = store.changes.subscribe(onNext: { changes.append($0) })
        defer { subscription.dispose() }
        let outcomes = load(store, at: [0, 20], on: scheduler)
        scheduler.start()

        let error = try XCTUnwrap(outcomes.values.last?.error as? APIError)
        XCTAssertEqual(error.statusCode, 503)
        XCTAssertEqual(error.errorCodes, ["E503"])
        XCTAssertEqual(error.errorDescription, "Server error (503 Service Unavailable) from https://api.flickr.com/services/feeds/photos_public.gne: try later")
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1])])
        XCTAssertEqual(changes.count, 1)
    }

    func testAHangingRequestTimesOutAsRequestTimeout() throws {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([.networkResponse(200, feedData([1]))])
        let store = makeStore(script, scheduler: scheduler, delay: .seconds(3600), timeout: .seconds(5))
        let outcomes = load(store, at: [0], on: scheduler)
        scheduler.start()

        XCTAssertEqual(outcomes.values.map(\.time), [5])
        let error = try XCTUnwrap(outcomes.values.first?.error as? APIError)
        guard case .requestTimeout = error else { return XCTFail("expected a timeout, got \(error)") }
        XCTAssertEqual(store.sections.value, [])
    }

    func testTransportErrorsAreClassified() throws {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkError(URLError(.timedOut)),
            .networkError(URLError(.cannotConnectToHost)),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let outcomes = load(store, at: [0, 20], on: scheduler)
        scheduler.start()

        let errors = outcomes.values.compactMap { $0.error as? APIError }
        XCTAssertEqual(errors.count, 2)
        guard case .requestTimeout = errors.first else { return XCTFail("expected a timeout, got \(errors)") }
        XCTAssertEqual(errors.last?.isNoNetwork, true)
        XCTAssertEqual(store.sections.value, [])
    }

    func testABodyThatIsNotAFeedFailsWithTheDecodeErrorAndAnEmptyBodyWithEmpty() throws {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, Data(#"{"title":"x","link":"y"}"#.utf8)),
            .networkResponse(200, Data(#"{"title":"x\"#.utf8)),
            .networkResponse(200, Data()),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let outcomes = load(store, at: [0, 20, 40], on: scheduler)
        scheduler.start()

        let errors = outcomes.values.map(\.error)
        XCTAssertEqual(errors[0] as? PhotoFeedError, .decoding(path: "items", reason: "missing key \"items\""))
        guard case .sanitizing = errors[1] as? PhotoFeedError else { return XCTFail("expected a repair error, got \(String(describing: errors[1]))") }
        guard case .empty = errors[2] as? APIError else { return XCTFail("expected .empty, got \(String(describing: errors[2]))") }
        XCTAssertEqual(store.sections.value, [])
    }

    func testConcurrentLoadsRunOneAfterAnotherInSubscriptionOrder() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1, 2])),
            .networkResponse(200, feedData([2, 3])),
            .networkResponse(200, feedData([3, 4])),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let outcomes = load(store, at: [0, 0, 1], on: scheduler)
        scheduler.advanceTo(5)
        XCTAssertEqual(script.requestedURLs.count, 1, "later loads wait for the first")
        scheduler.advanceTo(15)
        XCTAssertEqual(script.requestedURLs.count, 2)
        scheduler.start()

        XCTAssertEqual(outcomes.values.map(\.time), [10, 20, 30])
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1, 2]), links([3]), links([4])])
    }

    func testADisposedLoadLeavesTheQueueAndIsNeverSent() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1])),
            .networkResponse(200, feedData([2])),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let first = Recorder<Outcome>()
        let third = Recorder<Outcome>()
        scheduler.scheduleAt(0) {
            _ = store.load().subscribe { first.append(Outcome(time: scheduler.clock, result: $0)) }
            let second = store.load().subscribe { _ in XCTFail("a disposed load answered") }
            _ = store.load().subscribe { third.append(Outcome(time: scheduler.clock, result: $0)) }
            scheduler.scheduleAt(3) { second.dispose() }
        }
        scheduler.start()

        XCTAssertEqual(script.requestedURLs.count, 2)
        XCTAssertEqual(first.values.map(\.time), [10])
        XCTAssertEqual(third.values.map(\.time), [20])
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1]), links([2])])
    }

    func testDisposingARunningLoadCancelsItAndStartsTheNext() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([.networkResponse(200, feedData([7]))])
        let store = makeStore(script, scheduler: scheduler)
        let second = Recorder<Outcome>()
        scheduler.scheduleAt(0) {
            let first = store.load().subscribe { _ in XCTFail("a disposed load answered") }
            _ = store.load().subscribe { second.append(Outcome(time: scheduler.clock, result: $0)) }
            scheduler.scheduleAt(4) { first.dispose() }
        }
        scheduler.start()

        XCTAssertEqual(second.values.map(\.time), [14])
        XCTAssertEqual(second.values.first?.links, links([7]), "the cancelled stub never consumed its answer")
        XCTAssertEqual(sectionLinks(store.sections.value), [links([7])])
    }

    func testResetClearsPublishesAndShowsEveryPhotoAgain() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1, 2])),
            .networkResponse(200, feedData([1, 2])),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let changes = Recorder<Changeset>()
        let subscription = store.changes.subscribe(onNext: { changes.append($0) })
        defer { subscription.dispose() }
        _ = load(store, at: [0, 20], on: scheduler)
        scheduler.scheduleAt(15) { store.reset() }
        scheduler.start()

        XCTAssertEqual(changes.values.map(\.insertedSections), [[0], [], [0]])
        XCTAssertEqual(changes.values.map(\.deletedSections), [[], [0], []])
        XCTAssertEqual(sectionLinks(store.sections.value), [links([1, 2])])
        store.reset()
        store.reset()
        XCTAssertEqual(changes.count, 4, "resetting an empty store publishes nothing")
    }

    func testALoadInFlightDuringAResetAnswersButAppendsNothing() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1, 2])),
            .networkResponse(200, feedData([3])),
        ])
        let store = makeStore(script, scheduler: scheduler)
        let outcomes = load(store, at: [0, 12], on: scheduler)
        scheduler.scheduleAt(5) { store.reset() }
        scheduler.start()

        XCTAssertEqual(outcomes.values.map(\.time), [10, 22])
        XCTAssertEqual(outcomes.values.first?.links, links([1, 2]), "the stale load still answers its caller")
        XCTAssertEqual(sectionLinks(store.sections.value), [links([3])], "but only the load after the reset shows")
    }

    func testAnObserverMayLoadAgainFromInsideItsChangeCallback() {
        let scheduler = TestScheduler()
        let script = ScriptedFeed([
            .networkResponse(200, feedData([1])),
            .networkResponse(200, feedData([2])),
        ])
        let provider = NetworkProvider<FlickrAPI>(endpointClosure: script.endpointClosure,
                                                  stubClosure: NetworkProvider.immediatelyStub,
                                                  scheduler: scheduler)
        let store = PhotoFeedStore(provider: provider)
        let subscription = store.changes.subscribe(onNext: { _ in
            if store.sections.value.count == 1 { _ = store.load().subscribe { _ in } }
        })
        defer { subscription.dispose() }
        _ = load(store, at: [0], on: scheduler)
        scheduler.start()

        XCTAssertEqual(sectionLinks(store.sections.value), [links([1]), links([2])])
    }
}
