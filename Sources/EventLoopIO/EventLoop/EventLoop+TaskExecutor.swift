/// Loops as task executors: a task that prefers one
/// (`withTaskExecutorPreference(_:operation:)`, `Task(executorPreference:)`) runs its nonisolated
/// code on the loop's thread, where its connections' events arrive, so a request it awaits goes
/// out and comes back without a hand-off between threads. Code run there must not block or wait
/// for long: while it runs, the loop serves none of its sockets. Actor-isolated code still runs on
/// its actor's executor.
extension EventLoop: TaskExecutor {
    /// Runs `job` on the loop's thread, in turn with the loop's other tasks; after `stop()`, on the
    /// global concurrent executor, so that a task never waits on a loop that has ended.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !submit(.job(job)) { Self.runElsewhere(job) }
    }
}

/// A group as a task executor: a task that prefers it runs on whichever of its loops resumes it
/// (where the answer it awaited arrived), else on the next loop in turn, so it follows its
/// connections without being tied to one loop. The same rule holds: code run there must not block.
extension EventLoopGroup: TaskExecutor {
    /// Runs `job` on the group's loop whose thread enqueues it, else on the next loop.
    public func enqueue(_ job: consuming ExecutorJob) {
        (currentLoop ?? nextLoop()).enqueue(job)
    }
}
