import Synchronization

/// Inside `Reactive`, `Mutex` is the sanitizer-aware one.
typealias Mutex<Value: ~Copyable> = SanitizerAwareMutex<Value>

/// `Synchronization.Mutex`, made visible to ThreadSanitizer; the package's modules use it under
/// the name `Mutex` (each declares `typealias Mutex = SanitizerAwareMutex`).
///
/// On Linux a contended `Synchronization.Mutex` is acquired inside the kernel (a futex), which
/// ThreadSanitizer cannot see, so it reports every access under such a lock as a data race.
/// It locks the same way and, when the process runs under ThreadSanitizer, tells it about each
/// acquire and release. Otherwise the hooks are absent and the cost is one predictable branch.
@usableFromInline
package struct SanitizerAwareMutex<Value: ~Copyable>: ~Copyable, Sendable {
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
