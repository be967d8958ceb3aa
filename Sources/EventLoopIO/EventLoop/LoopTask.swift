/// A task waiting on a loop, in the loop's queues. A bare closure stored in an array is kept in
/// its most general form, which allocates a small wrapper on every append; a closure in an
/// enum's payload is stored as it is. The loop queues a task or two per request.
enum LoopTask {
    /// Work handed over with `execute(_:)`: dropped if the loop ends first.
    case closure(@Sendable () -> Void)
    /// A job of a task that prefers the loop as its executor: run with the loop as the task's
    /// executor, or, if the loop ends first, handed to the global concurrent executor (a task is
    /// never left waiting).
    case job(UnownedJob)
}

/// A task for the end of the loop's current round (made and run on the loop's thread).
struct RoundTask {
    let run: () -> Void
}
