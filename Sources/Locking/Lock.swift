import Synchronization

/// The package's one lock: `Synchronization.Mutex`, made visible to ThreadSanitizer. Every
/// module guards its shared state with it, and never calls out to an observer, a plugin or a
/// user closure while holding it.
///
/// On Linux a contended `Synchronization.Mutex` is acquired inside the kernel (a PI futex), which
/// ThreadSanitizer cannot see, so it would report every access under such a lock as a data race.
/// `Lock` locks the same way and, when the process runs under ThreadSanitizer, tells it about
/// each acquire and release. Otherwise the hooks are absent and the cost is one predictable branch.
///
/// ```swift
/// private let state = Lock(State())
/// let next = state.withLock { state in state.count += 1; return state.count }
/// ```
@usableFromInline
package struct Lock<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let base: Synchronization.Mutex<Value>

    /// A lock guarding `initialValue`.
    @inlinable
    package init(_ initialValue: consuming sending Value) {
        base = Synchronization.Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let hooks = ThreadSanitizerHooks.shared else { return try base.withLock(body) }
        let address = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
        return try base.withLock { (value: inout sending Value) throws(E) -> sending Result in
            hooks.acquire(address)
            defer { hooks.release(address) }
            return try body(&value)
        }
    }
}

/// `__tsan_acquire` / `__tsan_release`, looked up once; `nil` outside sanitized builds.
@usableFromInline
struct ThreadSanitizerHooks: Sendable {
    @usableFromInline typealias Hook = @convention(c) (UnsafeRawPointer?) -> Void

    @usableFromInline let acquire: Hook
    @usableFromInline let release: Hook

    @usableFromInline static let shared: ThreadSanitizerHooks? = lookUp()
}
