// The one file of the viewer that knows which C library it runs on: the terminal calls
// (termios, ioctl, isatty, signals) come from here for the whole module.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif

/// The terminal calls whose spelling differs between platforms.
enum TerminalPlatform {
    /// The `ioctl` request that reads the window size. Darwin's `TIOCGWINSZ` is a function-like
    /// macro Swift does not import: `_IOR('t', 104, struct winsize)` is 0x40087468.
    static var windowSizeRequest: UInt {
        #if canImport(Darwin)
        0x4008_7468
        #else
        UInt(TIOCGWINSZ)
        #endif
    }

    /// `write(2)`, reached through the module name, which differs per platform.
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(fd, buffer, count)
        #elseif canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Musl.write(fd, buffer, count)
        #endif
    }
}
