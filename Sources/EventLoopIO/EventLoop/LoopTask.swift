/// A task waiting on a loop, in the loop's queues. A bare closure stored in an array is kept in
/// its most general form, which allocates a small wrapper on every append; a closure in a
/// struct's field is stored as it is. The loop queues a task or two per request.
struct LoopTask {
    let run: @Sendable () -> Void
}

/// A task for the end of the loop's current round (made and run on the loop's thread).
struct RoundTask {
    let run: () -> Void
}
