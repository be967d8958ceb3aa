import Locking

/// A sink's mutable state behind the package's `Lock`, for state holding elements that need
/// not be `Sendable` (where `Lock`'s `sending` rules do not fit: the state stays in this object
/// and only `Void` goes through the lock). The closure given to `withLock` must not call out:
/// no observer, user closure or disposal runs under the lock.
///
/// Not `Sendable` itself: the sink that owns it documents why sharing it is safe.
@usableFromInline
final class LockedState<State> {
    @usableFromInline let lock = Lock(())
    @usableFromInline var state: State

    @inlinable
    init(_ initial: State) {
        state = initial
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    func withLock<Value>(_ body: (inout State) -> Value) -> Value {
        var result: Value?
        lock.withLock { _ in result = body(&state) }
        guard let result else { preconditionFailure("the lock ran its body") }
        return result
    }
}
