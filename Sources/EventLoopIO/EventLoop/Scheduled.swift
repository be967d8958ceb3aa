/// A timer set on an event loop: `cancel()` it, on that loop's thread, when it is no longer
/// wanted. Cancelling a timer that fired already, or twice, does nothing.
///
/// ```swift
/// var timer: Scheduled? = loop.schedule(in: .seconds(10)) { timedOut() }
/// timer?.cancel()
/// timer = nil
/// ```
public struct Scheduled {
    private let loop: EventLoop
    private let id: UInt64

    init(loop: EventLoop, id: UInt64) {
        self.loop = loop
        self.id = id
    }

    /// Cancels the timer if it has not fired. Call on the loop's thread.
    public func cancel() {
        loop.cancelTimer(id)
    }
}
