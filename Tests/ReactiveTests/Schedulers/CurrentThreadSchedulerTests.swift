import Reactive
import TestSupport
import XCTest

/// The address of a local variable: a measure of how deep the stack is.
@inline(never)
private func stackAddress() -> UInt {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

/// Mutable test state for closures that the trampoline runs on this thread only.
private final class ChainState: @unchecked Sendable {  // @unchecked: touched only on the test's thread.
    var order: [Int] = []
    var lowest = UInt.max
    var highest: UInt = 0
}

final class CurrentThreadSchedulerTests: LeakCheckingTestCase {
    func testScheduleRunsAtOnceWhenNothingIsRunning() {
        let calls = Recorder<String>()
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        CurrentThreadScheduler.instance.schedule { calls.append("action") }
        calls.append("after")
        XCTAssertEqual(calls.values, ["action", "after"])
    }

    func testNestedSchedulesRunAfterTheRunningActionInFIFOOrder() {
        let calls = Recorder<String>()
        let scheduler = CurrentThreadScheduler.instance
        scheduler.schedule {
            calls.append("outer start")
            XCTAssertFalse(CurrentThreadScheduler.isScheduleRequired)
            scheduler.schedule {
                calls.append("a")
                scheduler.schedule { calls.append("d") }
            }
            scheduler.schedule { calls.append("b") }
            scheduler.schedule { calls.append("c") }
            calls.append("outer end")
        }
        XCTAssertEqual(calls.values, ["outer start", "outer end", "a", "b", "c", "d"])
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testHundredThousandNestedSchedulesRunInOrderWithoutGrowingTheStack() {
        let count = 100_000
        let state = ChainState()
        @Sendable func step(_ index: Int) {
            let address = stackAddress()
            state.lowest = min(state.lowest, address)
            state.highest = max(state.highest, address)
            state.order.append(index)
            if index + 1 < count {
                CurrentThreadScheduler.instance.schedule { step(index + 1) }
            }
        }
        CurrentThreadScheduler.instance.schedule { step(0) }
        XCTAssertEqual(state.order.count, count)
        XCTAssertEqual(state.order, Array(0..<count))
        XCTAssertLessThan(state.highest - state.lowest, 4_096, "each nested schedule must run at the same stack depth")
    }

    func testRecursionDeeperThanTheStackCompletes() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        // Two million nested calls would need far more than the 8 MB main-thread stack.
        let depth = 2_000_000
        let state = ChainState()
        @Sendable func recurse(_ remaining: Int) {
            if remaining == 0 {
                state.order.append(depth)
                return
            }
            CurrentThreadScheduler.instance.schedule { recurse(remaining - 1) }
        }
        recurse(depth)
        XCTAssertEqual(state.order, [depth])
    }

    func testDisposingAQueuedActionSkipsIt() {
        let calls = Recorder<String>()
        let scheduler = CurrentThreadScheduler.instance
        scheduler.schedule {
            let skipped = scheduler.schedule { calls.append("skipped") }
            scheduler.schedule { calls.append("kept") }
            skipped.dispose()
        }
        XCTAssertEqual(calls.values, ["kept"])
    }

    func testSubscribingInsideAnActionDefersNestedSynchronousWork() {
        let calls = Recorder<String>()
        CurrentThreadScheduler.instance.schedule {
            _ = Observable.of(1, 2).subscribe(onNext: { calls.append("next \($0)") })
            calls.append("subscribed")
        }
        XCTAssertTrue(calls.values.contains("next 1"))
        XCTAssertEqual(calls.values.filter { $0.hasPrefix("next") }, ["next 1", "next 2"])
    }
}
