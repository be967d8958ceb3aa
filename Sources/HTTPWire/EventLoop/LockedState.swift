import Synchronization

/// A `Mutex` whose hand-offs ThreadSanitizer can see.
///
/// On Linux, `Synchronization.Mutex` hands a contended lock over through the kernel (PI futex),
/// which TSan does not model, so it reports races between critical sections that are in fact
/// serialized. Each critical section here also does an acquiring load and a releasing add on an
/// `Atomic`, which gives TSan the happens-before edge the lock already guarantees.
package final class LockedState<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    private let handoff = Atomic<UInt>(0)

    /// A lock guarding `value`.
    package init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.wrappingAdd(1, ordering: .releasing) }
            return body(&value)
        }
    }
}
