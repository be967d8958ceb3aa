import Foundation

/// A sink's mutable state behind a lock, for state holding elements that need not be
/// `Sendable` (where `Mutex`'s `sending` rules do not fit). The closure given to `withLock`
/// must not call out: no observer, user closure or disposal runs under the lock.
///
/// Not `Sendable` itself: the sink that owns it documents why sharing it is safe.
final class LockedState<State> {
    private let lock = NSLock()
    private var state: State

    init(_ initial: State) {
        state = initial
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Value>(_ body: (inout State) -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}
