import Dispatch
@testable import EventLoopIO
import TestSupport
import XCTest

/// Loops and groups as task executors: a task that prefers one runs on its loops' threads, a
/// group's task goes on on the loop that resumes it, and a task that prefers a loop which has
/// ended still runs (on the global executor) rather than waiting forever.
final class EventLoopTaskExecutorTests: XCTestCase {
    /// What `body`, run as a task preferring `executor`, returned; nil when it did not finish in 10 s.
    private func outcome<T: Sendable>(preferring executor: any TaskExecutor, _ body: @escaping @Sendable () async -> T) -> T? {
        let result = Recorder<T>()
        Task(executorPreference: executor) { result.append(await body()) }
        guard waitUntil(timeout: 10, { result.count == 1 }) else { return nil }
        return result.values.first
    }

    /// Suspends the calling task (running on a loop) and resumes it from `resume`'s thread. The
    /// hand-off starts with a task of the current loop, which runs only once the calling task has
    /// suspended: so the task is resumed, never found not yet suspended and run on where it was.
    private static func resumed(by resume: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) async {
        guard let here = EventLoop.current else { return XCTFail("the task runs on no loop") }
        await withCheckedContinuation { continuation in
            here.execute { resume { continuation.resume() } }
        }
    }

    func testATaskPreferringALoopRunsOnItsThreadBeforeAndAfterItsAwaits() throws {
        let loop = try EventLoop(label: "TaskExecutorTests.loop")
        defer { loop.stop() }
        let places = outcome(preferring: loop) { () -> [Bool] in
            var places = [loop.inLoop]
            // Resumed from another thread: the task comes back to its loop.
            await Self.resumed { resume in DispatchQueue.global().async(execute: resume) }
            places.append(loop.inLoop)
            await Task.yield()
            places.append(loop.inLoop)
            return places
        }
        XCTAssertEqual(places, [true, true, true])
    }

    func testATaskPreferringAGroupGoesOnOnTheLoopThatResumesIt() throws {
        let group = try EventLoopGroup(count: 2, label: "TaskExecutorTests.group")
        let (first, second) = (group.loops[0], group.loops[1])
        let places = outcome(preferring: group) { () -> [String] in
            func loopName() -> String {
                first.inLoop ? "first" : second.inLoop ? "second" : "elsewhere"
            }
            var places = [EventLoop.isOnAnyLoopThread ? "a loop" : "elsewhere"]
            await Self.resumed { resume in second.execute(resume) }
            places.append(loopName())
            await Self.resumed { resume in first.execute(resume) }
            places.append(loopName())
            await Self.resumed { resume in second.execute(resume) }
            places.append(loopName())
            // From a thread that is none of its loops: the next loop in turn.
            await Self.resumed { resume in DispatchQueue.global().async(execute: resume) }
            places.append(first.inLoop || second.inLoop ? "a loop" : "elsewhere")
            return places
        }
        XCTAssertEqual(places, ["a loop", "second", "first", "second", "a loop"])
    }

    func testATaskResumedOnItsLoopCostsTheLoopNoWakeUp() throws {
        let loop = try EventLoop(label: "TaskExecutorTests.wake")
        defer { loop.stop() }
        // Each await is resumed by a task of the loop itself: the task's next step is queued on
        // the loop's own thread, which is awake, so nothing is written to wake it.
        let wakeUps = outcome(preferring: loop) { () -> Int in
            let before = loop.wakeUpCount
            for _ in 0..<50 {
                await withCheckedContinuation { continuation in loop.execute { continuation.resume() } }
            }
            return loop.wakeUpCount - before
        }
        XCTAssertEqual(wakeUps, 0)
        // The same awaits from a task without the preference: the loop sleeps while the task's
        // thread takes its turn, and is woken for the next one.
        let result = Recorder<Int>()
        Task {
            let before = loop.wakeUpCount
            for _ in 0..<50 {
                await withCheckedContinuation { continuation in loop.execute { continuation.resume() } }
            }
            result.append(loop.wakeUpCount - before)
        }
        XCTAssertTrue(waitUntil(timeout: 10) { result.count == 1 })
        XCTAssertGreaterThan(result.values.first ?? 0, 0)
    }

    func testAJobQueuedAfterTheLoopsLastRoundRunsElsewhere() throws {
        let loop = try EventLoop(label: "TaskExecutorTests.last")
        let ranOffTheLoops = Recorder<Bool>()
        loop.execute {
            loop.stop()  // queued: the next round is the loop's last
            loop.execute {
                // Runs in that last round, after the stop: the task's first job is queued on a
                // loop that will not take another round.
                Task(executorPreference: loop) { ranOffTheLoops.append(!EventLoop.isOnAnyLoopThread) }
            }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { ranOffTheLoops.count == 1 }, "the task never ran")
        XCTAssertEqual(ranOffTheLoops.values, [true])
    }

    func testATaskPreferringALoopThatEndedStillRuns() throws {
        let loop = try EventLoop(label: "TaskExecutorTests.ended")
        loop.stop()
        XCTAssertTrue(waitUntil(timeout: 5) { !loop.submit(.closure({})) }, "the loop ended: it takes no more work")
        let ranOffTheLoops = outcome(preferring: loop) { () -> Bool in
            await Task.yield()
            return !EventLoop.isOnAnyLoopThread
        }
        XCTAssertEqual(ranOffTheLoops, true, "the task went on on the global executor")
    }
}
