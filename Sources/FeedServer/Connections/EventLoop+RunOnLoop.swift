import EventLoopIO

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
}
