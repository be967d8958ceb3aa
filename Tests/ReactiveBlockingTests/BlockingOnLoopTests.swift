import Dispatch
import EventLoopIO
import Foundation
import Reactive
import ReactiveBlocking
import TestSupport
import XCTest

/// `toBlocking()` on an event loop's thread (a task that prefers `HTTPClient.taskExecutor` runs
/// there): a debug build stops, saying why, instead of leaving the loop waiting for answers only
/// it can bring. Off the loops the same wait goes on.
final class BlockingOnLoopTests: LeakCheckingTestCase {
    private static let childVariable = "BLOCKING_ON_LOOP_CHILD"

    /// Run in a child process (this test again, told so in its environment), which must stop
    /// with the check's message before it waits.
    func testBlockingOnALoopsThreadStopsADebugBuildSayingWhy() throws {
        #if !DEBUG
        throw XCTSkip("the check is an assertion: debug builds only")
        #else
        if ProcessInfo.processInfo.environment[Self.childVariable] != nil {
            let loop = try EventLoop(label: "BlockingOnLoop.child")
            let done = DispatchSemaphore(value: 0)
            loop.execute {
                _ = try? Observable.just(1).toBlocking(timeout: 1).first()
                done.signal()
            }
            done.wait()
            return XCTFail("toBlocking() on the loop's thread went on")
        }
        try ChildTestRun.assertEachStops(
            test: "ReactiveBlockingTests.BlockingOnLoopTests/testBlockingOnALoopsThreadStopsADebugBuildSayingWhy",
            variable: Self.childVariable, children: [("1", "toBlocking() called on an event loop's thread")])
        #endif
    }

    /// A wait off the loops for elements a loop delivers is the ordinary case and goes on.
    func testWaitingOffTheLoopsForWhatALoopDeliversGoesOn() throws {
        let loop = try EventLoop(label: "BlockingOnLoop.delivers")
        defer { loop.stop() }
        let delivered = Observable<Bool>.create { observer in
            loop.execute {
                observer.onNext(EventLoop.isOnAnyLoopThread)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        XCTAssertFalse(EventLoop.isOnAnyLoopThread)
        XCTAssertEqual(try delivered.toBlocking(timeout: 5).toArray(), [true])
    }
}
