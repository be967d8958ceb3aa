import Foundation
import Reactive
import TestSupport
import XCTest

/// Operators that end a sequence from another thread (a trigger, a timer) or emit from a timer:
/// no overlapping observer calls, nothing after the terminal event, and no lock held while
/// the observer runs.
final class TerminationRaceStressTests: LeakCheckingTestCase {
    func testStressTakeUntilTriggerFromAnotherThreadEndsCleanly() {
        for round in 0..<200 {
            let source = PublishSubject<Int>()
            let trigger = PublishSubject<Void>()
            let overlap = OverlapDetector()
            let events = Recorder<String>()
            let subscription = source.take(until: trigger).subscribe(
                onNext: { value in overlap.run { events.append("\(value)") } },
                onError: { _ in overlap.run { events.append("error") } },
                onCompleted: { overlap.run { events.append("completed") } }
            )
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                for value in 0..<200 { source.onNext(value) }
            }
            DispatchQueue.global().async(group: group) {
                if round % 2 == 0 { Thread.sleep(forTimeInterval: 0.0001) }
                trigger.onNext(())
            }
            XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
            subscription.dispose()
            let values = events.values
            XCTAssertEqual(overlap.count, 0)
            XCTAssertEqual(values.last, "completed", "round \(round)")
            XCTAssertEqual(values.filter { $0 == "completed" }.count, 1)
            XCTAssertEqual(values.dropLast(), (0..<(values.count - 1)).map { "\($0)" }[...], "round \(round)")
            if overlap.count > 0 || values.last != "completed" { return }
        }
    }

    func testStressATriggerDoesNotWaitForAnObserverBusyOnAnotherThread() {
        let source = PublishSubject<Int>()
        let trigger = PublishSubject<Void>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let events = Recorder<String>()
        let subscription = source.take(until: trigger).subscribe(
            onNext: { value in
                events.append("\(value)")
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
            },
            onCompleted: { events.append("completed") }
        )
        DispatchQueue.global().async { source.onNext(1) }
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        let triggered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            trigger.onNext(())
            triggered.signal()
        }
        // The trigger returns while the observer is still inside onNext: no lock is held.
        XCTAssertEqual(triggered.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(events.values, ["1"])
        release.signal()
        XCTAssertTrue(waitUntil { events.values == ["1", "completed"] })
        subscription.dispose()
    }

    func testStressTakeForTimerRacingTheSource() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for round in 0..<100 {
            let source = PublishSubject<Int>()
            let overlap = OverlapDetector()
            let events = Recorder<String>()
            let subscription = source.take(for: .microseconds(200), scheduler: scheduler).subscribe(
                onNext: { value in overlap.run { events.append("\(value)") } },
                onCompleted: { overlap.run { events.append("completed") } }
            )
            for value in 0..<300 { source.onNext(value) }
            XCTAssertTrue(waitUntil { events.values.last == "completed" }, "round \(round)")
            subscription.dispose()
            let values = events.values
            XCTAssertEqual(overlap.count, 0)
            XCTAssertEqual(values.filter { $0 == "completed" }.count, 1)
            XCTAssertEqual(values.dropLast(), (0..<(values.count - 1)).map { "\($0)" }[...], "round \(round)")
        }
    }

    func testStressBufferTimerRacingTheSourceLosesAndRepeatsNothing() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for _ in 0..<20 {
            let source = PublishSubject<Int>()
            let overlap = OverlapDetector()
            let arrays = Recorder<[Int]>()
            let completed = Recorder<Bool>()
            let subscription = source.buffer(timeSpan: .microseconds(100), count: 7, scheduler: scheduler).subscribe(
                onNext: { array in overlap.run { arrays.append(array) } },
                onCompleted: { completed.append(true) }
            )
            for value in 0..<2_000 { source.onNext(value) }
            source.onCompleted()
            XCTAssertTrue(waitUntil { completed.count == 1 })
            subscription.dispose()
            XCTAssertEqual(overlap.count, 0)
            XCTAssertEqual(arrays.values.flatMap { $0 }, Array(0..<2_000))
            XCTAssertTrue(arrays.values.allSatisfy { $0.count <= 7 })
        }
    }
}
