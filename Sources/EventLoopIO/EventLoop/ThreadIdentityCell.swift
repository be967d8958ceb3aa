import Locking
import Synchronization

/// The identity of the one thread that owns something (an event loop), set once by that thread,
/// readable from any thread.
final class ThreadIdentityCell: Sendable {
    private let identity = Atomic<UInt>(0)

    /// Records the calling thread as the owner.
    func setCurrent() {
        identity.store(ThreadIdentity.current, ordering: .releasing)
    }

    /// Whether the calling thread is the owner.
    var isCurrent: Bool {
        identity.load(ordering: .acquiring) == ThreadIdentity.current
    }
}
