import Foundation
import Reactive
import Synchronization
import TestSupport
import XCTest

/// Senders, each sending `perSender` elements.
private let senders = 8
private let perSender = 2_000

final class SubjectStressTests: LeakCheckingTestCase {
    func testStressManySendersWithSteadyAndChurningSubscribers() {
        let subject = PublishSubject<Stamp>()
        let clock = StampClock()
        let steadyCount = 6
        let steady = (0..<steadyCount).map { _ in Recorder<Stamp>() }
        let overlap = OverlapDetector()
        let steadySubscriptions = steady.map { recorder in
            subject.subscribe(onNext: { stamp in overlap.run { recorder.append(stamp) } })
        }
        let sendersDone = Atomic<Int>(0)
        let churnRounds = Atomic<Int>(0)
        let lateDeliveries = Atomic<Int>(0)
        let churnOrderFailures = Atomic<Int>(0)
        let group = DispatchGroup()
        for sender in 0..<senders {
            DispatchQueue.global().async(group: group) {
                for sequence in 0..<perSender {
                    subject.onNext(Stamp(sender: sender, sequence: sequence, global: clock.next()))
                }
                sendersDone.add(1, ordering: .releasing)
            }
        }
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                var rounds = 0
                while sendersDone.load(ordering: .acquiring) < senders && rounds < 5_000 {
                    rounds += 1
                    let seen = Recorder<Stamp>()
                    let subscription = subject.subscribe(onNext: { seen.append($0) })
                    for _ in 0..<(rounds % 4) { sched_yield() }
                    subscription.dispose()
                    let watermark = clock.mark()
                    for _ in 0..<3 { sched_yield() }
                    let received = seen.values
                    if received.contains(where: { $0.global > watermark }) { lateDeliveries.add(1, ordering: .relaxed) }
                    var last: [Int: Int] = [:]
                    for stamp in received {
                        if let previous = last[stamp.sender], previous >= stamp.sequence {
                            churnOrderFailures.add(1, ordering: .relaxed)
                        }
                        last[stamp.sender] = stamp.sequence
                    }
                }
                churnRounds.add(rounds, ordering: .relaxed)
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "the stress run must finish")
        steadySubscriptions.forEach { $0.dispose() }
        for (index, recorder) in steady.enumerated() {
            assertCompletePerSenderOrder(recorder.values, senders: senders, perSender: perSender, "steady subscriber \(index)")
        }
        XCTAssertEqual(overlap.count, 0, "a subject must not call an observer on two threads at once")
        XCTAssertEqual(lateDeliveries.load(ordering: .relaxed), 0, "an element sent after dispose() returned was delivered")
        XCTAssertEqual(churnOrderFailures.load(ordering: .relaxed), 0, "a churning subscriber saw a sender's elements out of order")
        XCTAssertGreaterThan(churnRounds.load(ordering: .relaxed), 0)
        XCTAssertFalse(subject.hasObservers)
    }

    func testStressDisposeRacingEmissionDeliversNothingAfterDispose() {
        let subject = PublishSubject<Stamp>()
        let clock = StampClock()
        let stop = Atomic<Bool>(false)
        let sender = DispatchGroup()
        DispatchQueue.global().async(group: sender) {
            var sequence = 0
            while !stop.load(ordering: .relaxed) && sequence < 2_000_000 {
                subject.onNext(Stamp(sender: 0, sequence: sequence, global: clock.next()))
                sequence += 1
            }
        }
        let rounds = 200
        let disposedTwice = Atomic<Int>(0)
        let late = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: rounds) { round in
            let seen = Recorder<Stamp>()
            let disposals = Atomic<Int>(0)
            let subscription = subject.subscribe(onNext: { seen.append($0) },
                                                 onDisposed: { disposals.add(1, ordering: .relaxed) })
            for _ in 0..<(round % 8) { sched_yield() }
            DispatchQueue.concurrentPerform(iterations: 2) { _ in subscription.dispose() }
            let watermark = clock.mark()
            for _ in 0..<4 { sched_yield() }
            if seen.values.contains(where: { $0.global > watermark }) { late.add(1, ordering: .relaxed) }
            if disposals.load(ordering: .relaxed) != 1 { disposedTwice.add(1, ordering: .relaxed) }
        }
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(sender.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(late.load(ordering: .relaxed), 0, "an element sent after dispose() returned was delivered")
        XCTAssertEqual(disposedTwice.load(ordering: .relaxed), 0, "onDisposed must run exactly once")
        XCTAssertFalse(subject.hasObservers)
    }

    func testStressBehaviorSubjectSubscribersJoinWithoutGapsOrRepeats() {
        let subject = BehaviorSubject(value: 0)
        let count = 20_000
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for value in 1...count { subject.onNext(value) }
        }
        let failures = Recorder<String>()
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let seen = Recorder<Int>()
            let subscription = subject.subscribe(onNext: { seen.append($0) })
            for _ in 0..<(index * 10) { sched_yield() }
            subscription.dispose()
            let values = seen.values
            guard let first = values.first else {
                failures.append("subscriber \(index) got no current value")
                return
            }
            if values != Array(first..<(first + values.count)) { failures.append("subscriber \(index) saw \(values.prefix(5))...") }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(failures.values, [])
        XCTAssertEqual(try subject.value(), count)
    }

    func testStressReplaySubjectLateSubscribersGetBufferThenEverythingInOrder() {
        let subject = ReplaySubject<Int>.create(bufferSize: 16)
        let count = 20_000
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for value in 0..<count { subject.onNext(value) }
            subject.onCompleted()
        }
        let failures = Recorder<String>()
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let seen = Recorder<Int>()
            let completed = Recorder<Int>()
            let subscription = subject.subscribe(onNext: { seen.append($0) }, onCompleted: { completed.append(1) })
            for _ in 0..<(index * 10) { sched_yield() }
            subscription.dispose()
            let values = seen.values
            guard let first = values.first else { return }
            if values != Array(first..<(first + values.count)) { failures.append("subscriber \(index) saw a gap or repeat") }
            if completed.count == 1 && values.last != count - 1 { failures.append("subscriber \(index) completed early") }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(failures.values, [])
        let late = Recorder<Int>()
        subject.subscribe(onNext: { late.append($0) }).dispose()
        XCTAssertEqual(late.values, Array((count - 16)..<count))
    }

    func testStressConcurrentTerminalEventsReachEachObserverOnce() {
        for _ in 0..<200 {
            let subject = PublishSubject<Int>()
            let terminals = Recorder<String>()
            let afterTerminal = Recorder<Int>()
            let done = Atomic<Bool>(false)
            let subscriptions = (0..<4).map { _ in
                subject.subscribe(onNext: { value in if done.load(ordering: .acquiring) { afterTerminal.append(value) } },
                                  onError: { _ in terminals.append("error") },
                                  onCompleted: { done.store(true, ordering: .releasing); terminals.append("completed") })
            }
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                switch index {
                case 0: subject.onCompleted()
                case 1: subject.onError(TestError(1))
                default: for value in 0..<50 { subject.onNext(value) }
                }
            }
            subscriptions.forEach { $0.dispose() }
            XCTAssertEqual(terminals.count, 4, "each observer gets exactly one terminal event")
            XCTAssertEqual(Set(terminals.values).count, 1, "all observers get the same terminal event")
            XCTAssertEqual(afterTerminal.count, 0)
        }
    }
}
