// The one file of SocketIO that knows which C library it runs on. Everything else calls the
// C library through the names re-exported here and the `SystemLibrary` helpers below, whose
// spelling differs between Darwin (macOS, iOS, ...), glibc and musl.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif

/// The socket calls and constants whose spelling or availability differs between platforms.
enum SystemLibrary {
    /// `SOCK_STREAM` as the `Int32` that `socket()` and `addrinfo.ai_socktype` take.
    static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// The `send()` flag that keeps a write to a closed peer from raising `SIGPIPE`: Linux has
    /// `MSG_NOSIGNAL`; Darwin has none and sets `SO_NOSIGPIPE` on the socket instead (see `socket`).
    static var sendFlags: Int32 {
        #if canImport(Darwin)
        0
        #else
        Int32(MSG_NOSIGNAL)
        #endif
    }

    /// A close-on-exec stream socket of `family`, non-blocking when asked; -1 with `errno` set on failure.
    /// Linux sets both flags in `socket()`; Darwin sets them with `fcntl` and adds `SO_NOSIGPIPE`.
    static func socket(family: Int32, nonBlocking: Bool) -> Int32 {
        #if canImport(Darwin)
        let fd = Darwin.socket(family, SOCK_STREAM, 0)
        guard fd >= 0 else { return fd }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        if nonBlocking { setNonBlocking(fd, true) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
        #elseif canImport(Glibc)
        var type = streamType | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return socketCall(family, type, 0)
        #else
        return socketCall(family, streamType | SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0), 0)
        #endif
    }

    #if !canImport(Darwin)
    private static func socketCall(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.socket(family, type, proto)
        #else
        Musl.socket(family, type, proto)
        #endif
    }
    #endif

    /// Turns `O_NONBLOCK` on or off.
    static func setNonBlocking(_ fd: Int32, _ on: Bool) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// An IPv4 socket address for `port`; Darwin's carries its own length (`sin_len`).
    static func ipv4Address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        return address
    }

    /// The protocol number of TCP for `setsockopt`.
    static var tcpProtocol: Int32 { Int32(IPPROTO_TCP) }

    // The calls below share their names with `TCPSocket`'s methods, so they are reached
    // through the module name, which differs per platform.

    static func accept(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.accept(fd, nil, nil)
        #elseif canImport(Glibc)
        Glibc.accept(fd, nil, nil)
        #else
        Musl.accept(fd, nil, nil)
        #endif
    }

    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
        #if canImport(Darwin)
        Darwin.connect(fd, address, length)
        #elseif canImport(Glibc)
        Glibc.connect(fd, address, length)
        #else
        Musl.connect(fd, address, length)
        #endif
    }

    static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.listen(fd, backlog)
        #elseif canImport(Glibc)
        Glibc.listen(fd, backlog)
        #else
        Musl.listen(fd, backlog)
        #endif
    }

    static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.shutdown(fd, how)
        #elseif canImport(Glibc)
        Glibc.shutdown(fd, how)
        #else
        Musl.shutdown(fd, how)
        #endif
    }

    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(fd)
        #elseif canImport(Glibc)
        Glibc.close(fd)
        #else
        Musl.close(fd)
        #endif
    }

    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(fd, buffer, count)
        #elseif canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Musl.read(fd, buffer, count)
        #endif
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(fd, buffer, count)
        #elseif canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Musl.write(fd, buffer, count)
        #endif
    }

    static var shutdownBoth: Int32 { Int32(SHUT_RDWR) }
    static var shutdownWrite: Int32 { Int32(SHUT_WR) }
}
