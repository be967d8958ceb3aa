import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class DebugTests: LeakCheckingTestCase {
    private var capture: DebugLogCapture?
    private var lines: Recorder<String> { capture?.lines ?? Recorder() }

    override func setUp() {
        super.setUp()
        capture = DebugLogCapture()
    }

    override func tearDown() {
        capture?.restore()
        super.tearDown()
    }

    /// The lines without their timestamps, after checking each has RxSwift's timestamp form.
    private func contents() -> [String] {
        lines.values.map { line in
            let timestamp = line.prefix(while: { $0 != " " }) + " " + line.dropFirst(11).prefix(12)
            XCTAssertNotNil(timestamp.range(of: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$"#, options: .regularExpression), line)
            return String(line.dropFirst(25))
        }
    }

    func testLogsSubscriptionEventsAndDisposalInRxSwiftsForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.debug("numbers") }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(contents(), [
            "numbers -> subscribed", "numbers -> Event next(1)", "numbers -> Event next(2)",
            "numbers -> Event completed", "numbers -> isDisposed",
        ])
    }

    func testLogsAnErrorAndDisposalOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(3))])
        let res = scheduler.start { xs.debug("failing") }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError(3))])
        let logged = contents()
        XCTAssertEqual(logged.count, 4)
        XCTAssertTrue(logged[2].hasPrefix("failing -> Event error("), logged[2])
        XCTAssertEqual(logged[3], "failing -> isDisposed")
    }

    func testDisposeIsLogged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let res = scheduler.start { xs.debug("long") }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(contents(), ["long -> subscribed", "long -> Event next(1)", "long -> isDisposed"])
    }

    func testWithoutAnIdentifierTheCallSiteNamesTheLines() {
        let line = #line + 1
        _ = Observable.just(1).debug().subscribe()
        let first = contents().first ?? ""
        XCTAssertEqual(first, "DebugTests.swift:\(line) (testWithoutAnIdentifierTheCallSiteNamesTheLines()) -> subscribed")
    }

    func testTrimOutputShortensLongEvents() {
        let long = String(repeating: "a", count: 30) + String(repeating: "z", count: 30)
        _ = Observable.just(long).debug("trim", trimOutput: true).subscribe()
        _ = Observable.just(long).debug("full").subscribe()
        let logged = contents()
        let text = "next(\(long))"
        XCTAssertTrue(logged.contains("trim -> Event \(text.prefix(20))...\(text.suffix(20))"), "\(logged)")
        XCTAssertTrue(logged.contains("full -> Event \(text)"), "\(logged)")
        XCTAssertTrue(logged.contains("trim -> Event completed"))
    }

    func testTraitsLogThroughTheSameForm() {
        _ = Single.just(1).debug("single").subscribe()
        _ = Maybe<Int>.empty().debug("maybe").subscribe()
        _ = Completable.error(TestError(1)).debug("completable").subscribe()
        let logged = contents()
        XCTAssertEqual(Array(logged.prefix(7)), [
            "single -> subscribed", "single -> Event next(1)", "single -> Event completed", "single -> isDisposed",
            "maybe -> subscribed", "maybe -> Event completed", "maybe -> isDisposed",
        ])
        XCTAssertEqual(logged[7], "completable -> subscribed")
        XCTAssertTrue(logged[8].hasPrefix("completable -> Event error("), logged[8])
        XCTAssertEqual(logged.count, 10)
    }
}
