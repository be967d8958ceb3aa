import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class BinderTests: LeakCheckingTestCase {
    final class Label: Sendable {
        let texts = Recorder<String>()
    }

    func testAppliesElementsToTheTargetOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let label = Label()
        let binder = Binder<String>(label, scheduler: scheduler) { label, text in label.texts.append("\(text)@\(scheduler.clock)") }
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        scheduler.scheduleAt(200) { _ = xs.bind(to: binder) }
        scheduler.start()
        XCTAssertEqual(label.texts.values, ["a@211", "b@221"])
    }

    func testDropsElementsOnceTheTargetIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        var label: Label? = Label()
        let texts = label!.texts
        let binder = Binder(label!, scheduler: scheduler) { label, text in label.texts.append(text) }
        binder.onNext("kept")
        scheduler.start()
        label = nil
        binder.onNext("dropped")
        scheduler.start()
        XCTAssertEqual(texts.values, ["kept"])
    }

    func testAnErrorIsWrittenToTheDebugLog() {
        let lines = Recorder<String>()
        let previous = DebugLog.output
        DebugLog.output = { lines.append($0) }
        defer { DebugLog.output = previous }
        let label = Label()
        let binder = Binder(label, scheduler: ImmediateScheduler.instance) { label, text in label.texts.append(text) }
        binder.onError(TestError(4))
        binder.onCompleted()
        XCTAssertEqual(lines.values.count, 1)
        XCTAssertTrue(lines.values.first?.hasPrefix("Binding error:") == true)
        XCTAssertEqual(label.texts.values, [])
    }

    func testDeliversOnTheMainQueueByDefault() {
        let label = Label()
        let binder = Binder<String>(label) { label, text in
            label.texts.append(Thread.isMainThread ? "main \(text)" : "other \(text)")
        }
        DispatchQueue.global().async { binder.onNext("x") }
        XCTAssertTrue(waitUntil { label.texts.count == 1 })
        XCTAssertEqual(label.texts.values, ["main x"])
    }
}
