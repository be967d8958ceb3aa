import Dispatch
import EventLoopIO
import XCTest

/// Waits (up to 20 s a loop) until each shared event loop has run every task queued on it before
/// this call, then the timers due and one poll of its sockets (a task queued from the loop runs
/// in its next turn, after the poll). A socket exchange reports on its loop and `cancel()`
/// queues its teardown there, so what they reported by then has been reported when this returns.
func drainSharedLoops(file: StaticString = #filePath, line: UInt = #line) {
    guard let loops = EventLoopGroup.shared?.loops else { return XCTFail("no shared event loops", file: file, line: line) }
    let ran = DispatchSemaphore(value: 0)
    for loop in loops { loop.execute { loop.execute { ran.signal() } } }
    for _ in loops {
        XCTAssertEqual(ran.wait(timeout: .now() + 20), .success, "a loop ran the tasks queued before", file: file, line: line)
    }
}
