// The one file of Reactive that knows which C library it runs on: thread-specific storage for
// the current-thread trampoline.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread key whose values are retained objects (`Unmanaged.passRetained(...).toOpaque()`),
/// each released when its thread exits.
@usableFromInline
struct ThreadSpecificKey: Sendable {
    @usableFromInline let key: pthread_key_t

    /// A new key; the C library holds at least 128 per process, so make one per use, once.
    @usableFromInline
    init() {
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
    var value: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    /// Sets this thread's value (a retained object; the key releases it at thread exit).
    @inlinable
    func set(_ value: UnsafeMutableRawPointer) {
        pthread_setspecific(key, value)
    }
}
