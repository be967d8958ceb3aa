// The one file of the benchmarks that knows which C library it runs on.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif

/// The process figures whose system calls differ between platforms.
enum SystemLibrary {
    /// Peak resident set size in KiB: `ru_maxrss` is in KiB on Linux and in bytes on Darwin.
    static var peakResidentKiB: Int {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss / 1024
        #else
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
        #endif
    }
}
