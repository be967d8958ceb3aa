// The one file of Locking that knows which C library it runs on.
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
