import Locking
import Synchronization

/// An action waiting for its time on a scheduler; disposing it releases the action (and what
/// it captured) at once, and running it runs it at most once.
final class ScheduledAction: Cancelable {
    private let action: Lock<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Lock(action)
    }

    var isDisposed: Bool { action.withLock { $0 == nil } }

    func run() {
        take()?()
    }

    /// Claims the action (so it runs at most once) without running it; `nil` once run or disposed.
    func take() -> (@Sendable () -> Void)? {
        action.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }

    func dispose() {
        action.withLock { $0 = nil }
    }
}
