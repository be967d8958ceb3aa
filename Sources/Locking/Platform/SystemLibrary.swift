// The one file of Locking, and of the modules built on it, that knows which C library it runs
// on: ThreadSanitizer's hooks, thread-specific storage and the calling thread's identity.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ThreadSanitizerHooks {
    /// `__tsan_acquire` / `__tsan_release` when the process runs under ThreadSanitizer on Linux.
    /// On Apple platforms `Synchronization.Mutex` is an `os_unfair_lock`, which the sanitizer
    /// already sees, so no hooks are needed there.
    static func lookUp() -> ThreadSanitizerHooks? {
        #if canImport(Glibc) || canImport(Musl)
        guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release") else { return nil }
        return ThreadSanitizerHooks(acquire: unsafeBitCast(acquire, to: Hook.self), release: unsafeBitCast(release, to: Hook.self))
        #else
        return nil
        #endif
    }
}

/// A pthread key whose values are retained objects (`Unmanaged.passRetained(...).toOpaque()`),
/// each released when its thread exits.
@usableFromInline
package struct ThreadSpecificKey: Sendable {
    @usableFromInline let key: pthread_key_t

    /// A new key; the C library holds at least 128 per process, so make one per use, once.
    @inlinable
    package init() {
        var key = pthread_key_t()
        #if canImport(Darwin)
        // Darwin calls the destructor with a non-optional pointer (and only for non-nil values).
        pthread_key_create(&key) { pointer in Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        #else
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        #endif
        self.key = key
    }

    /// This thread's value, if one was set.
    @inlinable
    package var value: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    /// Sets this thread's value (a retained object; the key releases it at thread exit).
    @inlinable
    package func set(_ value: UnsafeMutableRawPointer) {
        pthread_setspecific(key, value)
    }
}

/// The calling thread, as a number no other live thread has (never 0).
@usableFromInline
package enum ThreadIdentity {
    /// `pthread_self()` as a number.
    @inlinable
    package static var current: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
