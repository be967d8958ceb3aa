import Foundation
import Reactive
import Synchronization
import TestSupport
import XCTest

/// Subjects under concurrent emission, subscription and feedback, checked for deadlocks (by
/// timeout), overlapping observer calls, and lost or repeated events.
final class SubjectFeedbackStressTests: LeakCheckingTestCase {
    private struct Hop: Sendable, Hashable {
        let origin: Int
        let sequence: Int
        let hops: Int
    }

    /// Two threads each send `perThread` elements into one of two subjects whose observers send
    /// every element on to the other subject, three hops in all.
    private func runFeedback(_ a: some SubjectType<Hop> & ObserverType<Hop>, _ b: some SubjectType<Hop> & ObserverType<Hop>,
                             name: String, file: StaticString = #filePath, line: UInt = #line) {
        let perThread = 2_000
        let atA = Recorder<Hop>()
        let atB = Recorder<Hop>()
        let overlapA = OverlapDetector()
        let overlapB = OverlapDetector()
        // Yielding inside a delivery lets the other thread start one of its own meanwhile.
        let forwardAB = a.subscribe(onNext: { hop in
            overlapA.run { atA.append(hop) }
            if hop.sequence % 16 == 0 { sched_yield() }
            if hop.hops < 3 { b.onNext(Hop(origin: hop.origin, sequence: hop.sequence, hops: hop.hops + 1)) }
        })
        let forwardBA = b.subscribe(onNext: { hop in
            overlapB.run { atB.append(hop) }
            if hop.sequence % 16 == 0 { sched_yield() }
            if hop.hops < 3 { a.onNext(Hop(origin: hop.origin, sequence: hop.sequence, hops: hop.hops + 1)) }
        })
        let threads = DispatchGroup()
        let ready = Atomic<Int>(0)
        DispatchQueue.global().async(group: threads) {
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < 2 { sched_yield() }
            for sequence in 0..<perThread { a.onNext(Hop(origin: 0, sequence: sequence, hops: 0)) }
        }
        DispatchQueue.global().async(group: threads) {
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < 2 { sched_yield() }
            for sequence in 0..<perThread { b.onNext(Hop(origin: 1, sequence: sequence, hops: 0)) }
        }
        let finished = threads.wait(timeout: .now() + 60)
        XCTAssertEqual(finished, .success, "\(name): the two subjects deadlocked", file: file, line: line)
        guard finished == .success else { return }
        forwardAB.dispose()
        forwardBA.dispose()
        XCTAssertEqual(overlapA.count + overlapB.count, 0, "\(name): an observer ran on two threads at once", file: file, line: line)
        // At A: origin 0 at hops 0 and 2, origin 1 at hops 1 and 3; at B the other way round.
        let expectedA = Set((0..<perThread).flatMap { s in
            [Hop(origin: 0, sequence: s, hops: 0), Hop(origin: 0, sequence: s, hops: 2),
             Hop(origin: 1, sequence: s, hops: 1), Hop(origin: 1, sequence: s, hops: 3)]
        })
        let expectedB = Set((0..<perThread).flatMap { s in
            [Hop(origin: 1, sequence: s, hops: 0), Hop(origin: 1, sequence: s, hops: 2),
             Hop(origin: 0, sequence: s, hops: 1), Hop(origin: 0, sequence: s, hops: 3)]
        })
        let valuesA = atA.values.filter { $0.sequence >= 0 }
        let valuesB = atB.values.filter { $0.sequence >= 0 }
        XCTAssertEqual(valuesA.count, expectedA.count, "\(name): A lost or repeated events", file: file, line: line)
        XCTAssertEqual(Set(valuesA), expectedA, "\(name)", file: file, line: line)
        XCTAssertEqual(valuesB.count, expectedB.count, "\(name): B lost or repeated events", file: file, line: line)
        XCTAssertEqual(Set(valuesB), expectedB, "\(name)", file: file, line: line)
        for (values, subject) in [(valuesA, "A"), (valuesB, "B")] {
            var last: [Hop: Int] = [:]
            for hop in values {
                let key = Hop(origin: hop.origin, sequence: 0, hops: hop.hops)
                if let previous = last[key], previous >= hop.sequence {
                    XCTFail("\(name): \(subject) saw origin \(hop.origin) hop \(hop.hops) out of order", file: file, line: line)
                    break
                }
                last[key] = hop.sequence
            }
        }
    }

    func testStressTwoPublishSubjectsFeedingEachOtherFromTwoThreads() {
        runFeedback(PublishSubject<Hop>(), PublishSubject<Hop>(), name: "publish")
    }

    func testStressTwoBehaviorSubjectsFeedingEachOtherFromTwoThreads() {
        let start = Hop(origin: 9, sequence: -1, hops: 9)
        runFeedback(BehaviorSubject(value: start), BehaviorSubject(value: start), name: "behavior")
    }

    func testStressTwoReplaySubjectsFeedingEachOtherFromTwoThreads() {
        runFeedback(ReplaySubject<Hop>.create(bufferSize: 4), ReplaySubject<Hop>.create(bufferSize: 4), name: "replay")
    }

    /// Subscribers join a `ReplaySubject` from several threads while a slow observer makes
    /// deliveries long: each gets the buffer then every later element, one call at a time.
    func testStressReplaySubscribersJoiningDuringSlowDeliveriesAreSerializedAndGapFree() {
        let subject = ReplaySubject<Int>.create(bufferSize: 8)
        let count = 5_000
        let slow = subject.subscribe(onNext: { value in
            if value % 16 == 0 { for _ in 0..<20 { sched_yield() } }
        })
        let emitter = DispatchGroup()
        DispatchQueue.global().async(group: emitter) {
            for value in 0..<count { subject.onNext(value) }
        }
        let failures = Recorder<String>()
        let joiners = DispatchGroup()
        for index in 0..<24 {
            DispatchQueue.global().async(group: joiners) {
                let seen = Recorder<Int>()
                let overlap = OverlapDetector()
                let subscription = subject.subscribe(onNext: { value in overlap.run { seen.append(value) } })
                for _ in 0..<(index * 40) { sched_yield() }
                subscription.dispose()
                let values = seen.values
                if let first = values.first, values != Array(first..<(first + values.count)) {
                    failures.append("joiner \(index) saw a gap, a repeat or a reordering")
                }
                if overlap.count > 0 { failures.append("joiner \(index) was called on two threads at once") }
            }
        }
        XCTAssertEqual(joiners.wait(timeout: .now() + 60), .success, "joining deadlocked")
        XCTAssertEqual(emitter.wait(timeout: .now() + 60), .success, "emitting deadlocked")
        slow.dispose()
        XCTAssertEqual(failures.values, [])
    }

    /// Subscribers join and leave a `share(replay: 1)` from several threads while its source
    /// emits: each gets a run of consecutive elements, and the source is released at the end.
    func testStressShareSubscribersChurningWhileTheSourceEmits() {
        let source = PublishSubject<Int>()
        let shared = source.share(replay: 1)
        let stop = Atomic<Bool>(false)
        let emitter = DispatchGroup()
        DispatchQueue.global().async(group: emitter) {
            var value = 0
            while !stop.load(ordering: .relaxed) && value < 2_000_000 {
                source.onNext(value)
                value += 1
            }
        }
        let failures = Recorder<String>()
        let joiners = DispatchGroup()
        for thread in 0..<4 {
            DispatchQueue.global().async(group: joiners) {
                for round in 0..<300 {
                    let seen = Recorder<Int>()
                    let subscription = shared.subscribe(onNext: { seen.append($0) })
                    for _ in 0..<(round % 5) { sched_yield() }
                    subscription.dispose()
                    let values = seen.values
                    if let first = values.first, values != Array(first..<(first + values.count)) {
                        failures.append("thread \(thread) round \(round) saw a gap or repeat")
                    }
                }
            }
        }
        XCTAssertEqual(joiners.wait(timeout: .now() + 60), .success, "share deadlocked")
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(emitter.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.values, [])
        XCTAssertFalse(source.hasObservers, "the last subscriber leaving released the source")
    }
}
