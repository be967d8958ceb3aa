import Foundation
import Reactive
import TestSupport
import XCTest

/// Subjects hold no lock while observer code runs: subscribing and emitting never wait for an
/// observer that is busy on another thread. Each test fails by timeout, not by hanging.
final class SubjectConcurrencyTests: LeakCheckingTestCase {
    /// Sends `value` into `subject` on another thread, whose observer blocks until released;
    /// runs `body` once that observer is inside, then releases it.
    private func whileAnObserverIsBusy<Subject: SubjectType & ObserverType>(
        on subject: Subject, sending value: Subject.Element, _ body: () -> Void
    ) where Subject.Element == Int, Subject.Observer.Element == Int {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let busy = subject.subscribe(onNext: { element in
            if element == value {
                entered.signal()
                release.wait()
            }
        })
        let emitter = DispatchGroup()
        DispatchQueue.global().async(group: emitter) { subject.onNext(value) }
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "the busy observer never ran")
        body()
        release.signal()
        XCTAssertEqual(emitter.wait(timeout: .now() + 5), .success)
        busy.dispose()
    }

    /// Runs `body` on another thread; fails when it has not returned within 5 seconds.
    private func assertReturnsPromptly(_ message: String, _ body: @escaping @Sendable () -> Void,
                                       file: StaticString = #filePath, line: UInt = #line) {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, message, file: file, line: line)
    }

    func testSubscribingToABehaviorSubjectDoesNotWaitForAnObserverBusyOnAnotherThread() {
        let subject = BehaviorSubject(value: 0)
        let got = Recorder<Int>()
        whileAnObserverIsBusy(on: subject, sending: 1) {
            assertReturnsPromptly("subscribing waited for an observer busy on another thread") {
                subject.subscribe(onNext: { got.append($0) }).dispose()
            }
            XCTAssertEqual(got.values, [1], "the current value, replayed on the subscribing thread")
        }
    }

    func testSubscribingToAReplaySubjectDoesNotWaitForAnObserverBusyOnAnotherThread() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        subject.onNext(7)
        let got = Recorder<Int>()
        whileAnObserverIsBusy(on: subject, sending: 8) {
            assertReturnsPromptly("subscribing waited for an observer busy on another thread") {
                subject.subscribe(onNext: { got.append($0) }).dispose()
            }
            XCTAssertEqual(got.values, [7, 8])
        }
    }

    func testEmittingDoesNotWaitForAnObserverBusyOnAnotherThreadAndOrderIsKept() {
        let subject = PublishSubject<Int>()
        let seen = Recorder<Int>()
        let other = subject.subscribe(onNext: { seen.append($0) })
        whileAnObserverIsBusy(on: subject, sending: 1) {
            assertReturnsPromptly("onNext waited for an observer busy on another thread") {
                subject.onNext(2)
                subject.onCompleted()
            }
        }
        XCTAssertEqual(seen.values, [1, 2], "the busy thread delivered the queued events after its own, in order")
        other.dispose()
    }

    func testASubscriberJoiningDuringABusyDeliveryGetsTheBufferThenLaterEventsWithoutGaps() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        let got = Recorder<Int>()
        let joined = NamedDisposables()
        whileAnObserverIsBusy(on: subject, sending: 2) {
            assertReturnsPromptly("subscribing waited") {
                joined["late"] = subject.subscribe(onNext: { got.append($0) })
                subject.onNext(3)
            }
        }
        XCTAssertEqual(got.values, [1, 2, 3])
        joined.dispose("late")
    }

    func testTwoSubjectsFeedingEachOtherFromTwoThreadsDoNotDeadlock() {
        let a = PublishSubject<Int>()
        let b = BehaviorSubject(value: 0)
        let insideA = DispatchSemaphore(value: 0)
        let insideB = DispatchSemaphore(value: 0)
        let atA = Recorder<Int>()
        let atB = Recorder<Int>()
        // Each observer waits until the other thread is inside the other subject's delivery,
        // then sends into that subject: with a delivery lock held across observers, both wait forever.
        let toB = a.subscribe(onNext: { value in
            atA.append(value)
            if value == 1 {
                insideA.signal()
                _ = insideB.wait(timeout: .now() + 5)
                b.onNext(10)
            }
        })
        let toA = b.subscribe(onNext: { value in
            atB.append(value)
            if value == 2 {
                insideB.signal()
                _ = insideA.wait(timeout: .now() + 5)
                a.onNext(20)
            }
        })
        let threads = DispatchGroup()
        DispatchQueue.global().async(group: threads) { a.onNext(1) }
        DispatchQueue.global().async(group: threads) { b.onNext(2) }
        XCTAssertEqual(threads.wait(timeout: .now() + 10), .success, "two subjects feeding each other deadlocked")
        toB.dispose()
        toA.dispose()
        XCTAssertEqual(atA.values, [1, 20])
        XCTAssertEqual(atB.values, [0, 2, 10])
    }
}
