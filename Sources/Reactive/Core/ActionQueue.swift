import Locking
/// Runs actions one at a time in the order they were enqueued, each outside any lock: the
/// thread that finds the queue idle runs it until it is empty, others only enqueue.
///
/// The sinks that take events from an upstream and from timers (`buffer`, `window`) keep their
/// state inside these actions, so it needs no lock of its own, and call the observer freely.
/// An action enqueued from inside an action runs after it, on the same thread.
// @unchecked: `state` is a Lock; actions are `@Sendable`.
final class ActionQueue: @unchecked Sendable {
    private struct State {
        var actions: [@Sendable () -> Void] = []
        var running = false
    }

    private let state = Lock(State())

    init() {}

    /// Runs `action` now when idle, else after the actions before it.
    func run(_ action: @escaping @Sendable () -> Void) {
        let idle = state.withLock { state in
            guard !state.running else {
                state.actions.append(action)
                return false
            }
            state.running = true
            return true
        }
        guard idle else { return }
        var batch = [action]
        while !batch.isEmpty {
            for next in batch { next() }
            batch = state.withLock { state in
                let waiting = state.actions
                state.actions = []
                if waiting.isEmpty { state.running = false }
                return waiting
            }
        }
    }
}
