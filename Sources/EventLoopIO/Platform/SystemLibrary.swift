// The one file of EventLoopIO that knows which C library it runs on. Everything else calls the
// C library through the names re-exported here and the helpers below, whose spelling differs
// between Darwin (macOS, iOS, ...), glibc and musl: the socket calls, and `Poller`, what an
// event loop waits on (epoll and an eventfd on Linux, poll and a pipe elsewhere).
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
internal import CLinuxCalls
#elseif canImport(Musl)
@_exported import Musl
internal import CLinuxCalls
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

    /// A non-blocking, close-on-exec stream socket of `family`; -1 with `errno` set on failure.
    /// Linux sets both flags in `socket()`; Darwin sets them with `fcntl` and adds `SO_NOSIGPIPE`.
    static func socket(family: Int32) -> Int32 {
        #if canImport(Darwin)
        let fd = Darwin.socket(family, SOCK_STREAM, 0)
        guard fd >= 0 else { return fd }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        setNonBlocking(fd)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
        #elseif canImport(Glibc)
        Glibc.socket(family, streamType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        #else
        Musl.socket(family, streamType | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)
        #endif
    }

    /// Accepts a connection on the listening `fd` as a non-blocking, close-on-exec socket
    /// (`accept4` on Linux; `accept` and `fcntl` on Darwin, adding `SO_NOSIGPIPE`); -1 with `errno` set.
    static func accept(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        let accepted = Darwin.accept(fd, nil, nil)
        guard accepted >= 0 else { return accepted }
        _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
        setNonBlocking(accepted)
        var on: Int32 = 1
        _ = setsockopt(accepted, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        return accepted
        #else
        cepoll_accept(fd)
        #endif
    }

    /// Turns `O_NONBLOCK` on.
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
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

    /// A Unix domain socket address for `path` as raw `sockaddr_un` bytes (Darwin's carries its
    /// own length, `sun_len`); nil when the path does not fit (with its terminating zero) or is empty.
    static func unixAddress(path: String) -> [UInt8]? {
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { return nil }
        #if canImport(Darwin)
        address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// `address` as text: the numeric host and port (`127.0.0.1:8080`, `[::1]:443`), or a Unix
    /// domain socket's path; "?" when the system cannot say.
    static func describe(_ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> String {
        if Int32(address.pointee.sa_family) == AF_UNIX {
            return address.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { unix in
                withUnsafeBytes(of: unix.pointee.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            }
        }
        var host = [CChar](repeating: 0, count: 1_025)
        var service = [CChar](repeating: 0, count: 32)
        let flags = Int32(NI_NUMERICHOST) | Int32(NI_NUMERICSERV)
        guard getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count), flags) == 0 else { return "?" }
        let text = { (buffer: [CChar]) in String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        let name = text(host)
        return Int32(address.pointee.sa_family) == AF_INET6 ? "[\(name)]:\(text(service))" : "\(name):\(text(service))"
    }

    /// Removes the file at `path` (a Unix domain socket left by an earlier listener); errors ignored.
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// The protocol number of TCP for `setsockopt`.
    static var tcpProtocol: Int32 { Int32(IPPROTO_TCP) }

    /// The number of processors the system runs this process on (at least one).
    static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Names the calling thread (the system keeps the first 15 bytes on Linux, 63 on Darwin).
    static func nameCurrentThread(_ name: String) {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #else
        clinuxcalls_set_thread_name(name)
        #endif
    }

    /// The calling thread's name, as the system keeps it.
    static var currentThreadName: String {
        var buffer = [CChar](repeating: 0, count: 64)
        #if canImport(Darwin)
        _ = pthread_getname_np(pthread_self(), &buffer, buffer.count)
        #else
        clinuxcalls_get_thread_name(&buffer, buffer.count)
        #endif
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    // The calls below share their names with `TCPSocket`'s methods, so they are reached
    // through the module name, which differs per platform.

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

/// What an event loop waits on: readiness of its sockets, a timeout, and a wake-up that any
/// thread may send. Linux: epoll (interest changed only through `epoll_ctl`, when it changes)
/// and an eventfd. Elsewhere: `poll` over an array rebuilt only after a change, and a pipe.
///
/// Everything but `wake()` runs on the loop's thread.
final class Poller: @unchecked Sendable {
    // @unchecked: only `wake()` is called off the loop's thread; it writes the eventfd (or pipe),
    // which the system serializes, and reads nothing else.

    /// A readiness the wait found, for the registration `token`; a hang-up or an error counts
    /// as both readable and writable, so that the next read or write reports it.
    struct Ready {
        let token: UInt64
        let readable: Bool
        let writable: Bool
    }

    #if canImport(Glibc) || canImport(Musl)
    private let epoll: Int32
    private let wakeFD: Int32
    private let events: UnsafeMutableBufferPointer<epoll_event>
    private static let wakeToken = UInt64.max

    init() throws(SocketError) {
        let epoll = epoll_create1(cepoll_cloexec)
        guard epoll >= 0 else { throw .system(operation: .poll, errno: errno) }
        let wakeFD = eventfd(0, cepoll_eventfd_flags)
        guard wakeFD >= 0 else {
            let number = errno
            _ = SystemLibrary.close(epoll)
            throw .system(operation: .pipe, errno: number)
        }
        var event = epoll_event()
        event.events = cepoll_in
        event.data.u64 = Self.wakeToken
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            let number = errno
            _ = SystemLibrary.close(wakeFD)
            _ = SystemLibrary.close(epoll)
            throw .system(operation: .poll, errno: number)
        }
        self.epoll = epoll
        self.wakeFD = wakeFD
        events = .allocate(capacity: 256)
        events.initialize(repeating: epoll_event())
    }

    /// Starts watching `fd`; 0, or the `errno` of `epoll_ctl`.
    func add(_ fd: Int32, token: UInt64, readable: Bool, writable: Bool) -> Int32 {
        control(EPOLL_CTL_ADD, fd, token: token, readable: readable, writable: writable)
    }

    /// Changes what `fd` is watched for; 0, or the `errno` of `epoll_ctl`.
    func modify(_ fd: Int32, token: UInt64, readable: Bool, writable: Bool) -> Int32 {
        control(EPOLL_CTL_MOD, fd, token: token, readable: readable, writable: writable)
    }

    /// Stops watching `fd` (before it is closed).
    func remove(_ fd: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    private func control(_ operation: Int32, _ fd: Int32, token: UInt64, readable: Bool, writable: Bool) -> Int32 {
        var event = epoll_event()
        event.events = (readable ? cepoll_in | cepoll_rdhup : 0) | (writable ? cepoll_out : 0)
        event.data.u64 = token
        return epoll_ctl(epoll, operation, fd, &event) == 0 ? 0 : errno
    }

    /// Waits up to `milliseconds` (-1: until woken) and hands each readiness to `body`; a
    /// wake-up is consumed here. Returns whether anything (a readiness or a wake-up) was found.
    func wait(milliseconds: Int32, _ body: (Ready) -> Void) -> Bool {
        let count = epoll_wait(epoll, events.baseAddress, Int32(events.count), milliseconds)
        guard count > 0 else { return false }
        for index in 0..<Int(count) {
            let event = events[index]
            let token = event.data.u64
            guard token != Self.wakeToken else {
                var value: UInt64 = 0
                _ = SystemLibrary.read(wakeFD, &value, MemoryLayout<UInt64>.size)
                continue
            }
            let failed = event.events & (cepoll_err | cepoll_hup) != 0
            body(Ready(token: token,
                       readable: failed || event.events & (cepoll_in | cepoll_rdhup) != 0,
                       writable: failed || event.events & cepoll_out != 0))
        }
        return true
    }

    /// Wakes the loop from its wait (callable from any thread).
    func wake() {
        var one: UInt64 = 1
        _ = SystemLibrary.write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Closes the epoll instance and the eventfd (on the loop's thread, as it ends).
    func close() {
        _ = SystemLibrary.close(wakeFD)
        _ = SystemLibrary.close(epoll)
        events.deallocate()
    }
    #else
    private struct Watch {
        let token: UInt64
        let events: Int16
    }

    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var watched: [Int32: Watch] = [:]
    private var entries: [pollfd] = []
    private var tokens: [UInt64] = []
    private var changed = true

    init() throws(SocketError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .system(operation: .pipe, errno: errno) }
        for fd in fds {
            SystemLibrary.setNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    func add(_ fd: Int32, token: UInt64, readable: Bool, writable: Bool) -> Int32 {
        modify(fd, token: token, readable: readable, writable: writable)
    }

    func modify(_ fd: Int32, token: UInt64, readable: Bool, writable: Bool) -> Int32 {
        watched[fd] = Watch(token: token, events: (readable ? Int16(POLLIN) : 0) | (writable ? Int16(POLLOUT) : 0))
        changed = true
        return 0
    }

    func remove(_ fd: Int32) {
        watched[fd] = nil
        changed = true
    }

    func wait(milliseconds: Int32, _ body: (Ready) -> Void) -> Bool {
        if changed {
            entries = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            tokens = [0]
            for (fd, watch) in watched where watch.events != 0 {
                entries.append(pollfd(fd: fd, events: watch.events, revents: 0))
                tokens.append(watch.token)
            }
            changed = false
        }
        let count = poll(&entries, nfds_t(entries.count), milliseconds)
        guard count > 0 else { return false }
        if entries[0].revents != 0 {
            withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
                while SystemLibrary.read(wakeRead, buffer.baseAddress, buffer.count) > 0 {}
            }
        }
        for index in 1..<entries.count where entries[index].revents != 0 {
            let revents = entries[index].revents
            entries[index].revents = 0
            let failed = revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
            body(Ready(token: tokens[index],
                       readable: failed || revents & Int16(POLLIN) != 0,
                       writable: failed || revents & Int16(POLLOUT) != 0))
        }
        entries[0].revents = 0
        return true
    }

    func wake() {
        var byte: UInt8 = 1
        _ = SystemLibrary.write(wakeWrite, &byte, 1)
    }

    func close() {
        _ = SystemLibrary.close(wakeRead)
        _ = SystemLibrary.close(wakeWrite)
    }
    #endif
}
