import Dispatch
import EventLoopIO
import Locking

extension EventLoop {
    /// Runs `task` on the loop's thread: at once when the caller is on it (a loop waiting for its
    /// own queued task would wait forever), else soon, through `execute`. Callable from any thread.
    func runOnLoop(_ task: @escaping @Sendable () -> Void) {
        if inLoop {
            task()
        } else {
            execute(task)
        }
    }

    /// Runs `work` on the loop's thread and returns what it made or threw: in place when the
    /// caller is on it, else handed to the loop while the caller waits. For work that must happen
    /// on the loop but whose answer a synchronous caller needs (the listener's socket).
    func runOnLoopAndWait<Value: Sendable>(_ work: @escaping @Sendable () throws(SocketError) -> Value) throws(SocketError) -> Value {
        if inLoop { return try work() }
        let outcome = LoopOutcome<Value>()
        execute {
            outcome.settle(Result { () throws(SocketError) -> Value in try work() })
        }
        return try outcome.wait().get()
    }
}

/// What a loop's task made, for the thread that waits for it.
private final class LoopOutcome<Value: Sendable>: Sendable {
    private let result = Lock<Result<Value, SocketError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func settle(_ value: Result<Value, SocketError>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait() -> Result<Value, SocketError> {
        done.wait()
        // `settle` stored it before it signalled.
        guard let value = result.withLock({ $0 }) else { preconditionFailure("LoopOutcome.wait: signalled without a result") }
        return value
    }
}
