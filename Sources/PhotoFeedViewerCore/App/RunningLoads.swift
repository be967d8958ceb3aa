import Locking
import Reactive

/// Subscriptions held only while they run: each is released when it answers (or when
/// `disposeAll()` ends it), so a long session does not keep one per key press.
package final class RunningLoads: Sendable {
    private struct State {
        var next = 0
        var running: [Int: SingleAssignmentDisposable] = [:]
        var closed = false
    }

    private let state = Lock(State())

    /// A holder with nothing running; a subscription leaves it when its load ends.
    package init() {}

    /// Subscriptions still running.
    package var count: Int { state.withLock { $0.running.count } }

    /// Subscribes to `single`, holding the subscription until `handler` has its answer.
    package func run<Element>(_ single: Single<Element>, _ handler: @escaping @Sendable (Result<Element, any Error>) -> Void) {
        let slot = SingleAssignmentDisposable()
        let id = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            defer { state.next += 1 }
            state.running[state.next] = slot
            return state.next
        }
        guard let id else { return }
        slot.setDisposable(single.subscribe { [self] result in
            state.withLock { _ = $0.running.removeValue(forKey: id) }
            handler(result)
        })
    }

    /// Disposes every running subscription; later `run`s do nothing.
    package func disposeAll() {
        let running = state.withLock { state -> [SingleAssignmentDisposable] in
            state.closed = true
            defer { state.running.removeAll() }
            return Array(state.running.values)
        }
        running.forEach { $0.dispose() }
    }
}
