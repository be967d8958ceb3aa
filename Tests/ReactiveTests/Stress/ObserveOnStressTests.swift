import Foundation
import Reactive
import Synchronization
import TestSupport
import XCTest

private let senders = 8
private let perSender = 2_000

final class ObserveOnStressTests: LeakCheckingTestCase {
    private func runConcurrentEmitters(through scheduler: any SchedulerType) {
        let subject = PublishSubject<Stamp>()
        let stamps = Recorder<Stamp>()
        let completions = Recorder<Int>()
        let overlap = OverlapDetector()
        let subscription = subject.observe(on: scheduler)
            .subscribe(onNext: { stamp in overlap.run { stamps.append(stamp) } },
                       onCompleted: { overlap.run { completions.append(stamps.count) } })
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for sequence in 0..<perSender {
                subject.onNext(Stamp(sender: sender, sequence: sequence, global: 0))
            }
        }
        subject.onCompleted()
        XCTAssertTrue(waitUntil(timeout: 30) { completions.count == 1 })
        subscription.dispose()
        assertCompletePerSenderOrder(stamps.values, senders: senders, perSender: perSender, "observe(on:)")
        XCTAssertEqual(completions.values, [senders * perSender], "completion comes after every element")
        XCTAssertEqual(overlap.count, 0, "observe(on:) must deliver one event at a time")
    }

    func testStressObserveOnSerialSchedulerUnderConcurrentEmitters() {
        runConcurrentEmitters(through: SerialDispatchQueueScheduler(qos: .userInitiated))
    }

    func testStressObserveOnConcurrentSchedulerUnderConcurrentEmitters() {
        runConcurrentEmitters(through: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
    }

    func testStressDisposingObserveOnWhileEmittingStopsDelivery() {
        // A queue of its own, so a barrier can wait for every delivery scheduled before it.
        let scheduler = ConcurrentDispatchQueueScheduler(
            queue: DispatchQueue(label: "ObserveOnStressTests.dispose", qos: .userInitiated, attributes: .concurrent))
        let clock = StampClock()
        let late = Atomic<Int>(0)
        let subject = PublishSubject<Stamp>()
        let stop = Atomic<Bool>(false)
        let sender = DispatchGroup()
        DispatchQueue.global().async(group: sender) {
            var sequence = 0
            while !stop.load(ordering: .relaxed) && sequence < 2_000_000 {
                subject.onNext(Stamp(sender: 0, sequence: sequence, global: clock.next()))
                sequence += 1
            }
        }
        DispatchQueue.concurrentPerform(iterations: 100) { round in
            let seen = Recorder<Stamp>()
            let subscription = subject.observe(on: scheduler).subscribe(onNext: { seen.append($0) })
            for _ in 0..<(round % 8) { sched_yield() }
            subscription.dispose()
            let watermark = clock.mark()
            // Let the sender go on past the watermark: were those elements still delivered, they
            // would be scheduled before the barrier below, which waits for them to run.
            let deadline = ContinuousClock.now + .seconds(5)
            while clock.mark() < watermark + 200, ContinuousClock.now < deadline { sched_yield() }
            scheduler.queue.sync(flags: .barrier) {}
            if seen.values.contains(where: { $0.global > watermark }) { late.add(1, ordering: .relaxed) }
        }
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(sender.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(late.load(ordering: .relaxed), 0, "an element sent after dispose() returned was delivered")
        XCTAssertFalse(subject.hasObservers)
    }
}
