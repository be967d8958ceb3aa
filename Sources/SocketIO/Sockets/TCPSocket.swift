import Synchronization

/// A TCP socket with blocking helpers that take timeouts (implemented with `poll`).
///
/// One object per open socket, with one owner, who calls `close()`; closing happens once (later
/// calls do nothing) and leaves `descriptor` at -1, so a closed socket can never reach a
/// descriptor number the system has since given to another connection. Other threads may call
/// `shutdown()` to wake a blocked reader. Two sockets are equal when they are the same object.
public final class TCPSocket: Sendable, Hashable {
    private let fd: Atomic<Int32>

    /// The descriptor, for `poll` and the event loop; -1 once closed.
    public var descriptor: Int32 { fd.load(ordering: .acquiring) }

    /// Takes over `descriptor` (an open TCP socket); the caller then owns the socket's `close()`.
    public init(descriptor: Int32) {
        fd = Atomic(descriptor)
    }

    /// Whether two values are the same socket object.
    public static func == (lhs: TCPSocket, rhs: TCPSocket) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    // MARK: - Server side

    /// Creates a socket bound to `host` (an IPv4 literal) and `port` (0 lets the kernel pick) and listens.
    public static func listen(host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 512) throws(SocketError) -> TCPSocket {
        let fd = SystemLibrary.socket(family: AF_INET, nonBlocking: false)
        guard fd >= 0 else { throw .system(operation: .socket, errno: errno) }
        let socket = TCPSocket(descriptor: fd)
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = SystemLibrary.ipv4Address(port: port)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            socket.close()
            throw .addressResolution(host: host, code: EAI_NONAME)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let number = errno
            socket.close()
            throw .system(operation: .bind, errno: number)
        }
        guard SystemLibrary.listen(fd, backlog) == 0 else {
            let number = errno
            socket.close()
            throw .system(operation: .listen, errno: number)
        }
        return socket
    }

    /// The local port this socket is bound to.
    public func localPort() throws(SocketError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw .system(operation: .getsockname, errno: errno) }
        return withUnsafePointer(to: &storage) { pointer in
            if Int32(pointer.pointee.ss_family) == AF_INET6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
    }

    /// Waits up to `timeout` (nil: forever) for a connection and accepts it; nil on timeout.
    public func accept(timeout: Duration?) throws(SocketError) -> TCPSocket? {
        guard try wait(for: Int16(POLLIN), timeout: timeout, operation: .accept) else { return nil }
        while true {
            let fd = SystemLibrary.accept(descriptor)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                SystemLibrary.setNonBlocking(fd, false)
                return TCPSocket(descriptor: fd)
            }
            let number = errno
            if number == EINTR { continue }
            if number == EAGAIN || number == EWOULDBLOCK || number == ECONNABORTED { return nil }
            throw .system(operation: .accept, errno: number)
        }
    }

    // MARK: - Client side

    /// Resolves `host` with `getaddrinfo` (IPv4 and IPv6) and connects to the first address that
    /// answers, each attempt bounded by `timeout` (non-blocking connect, then `poll`).
    public static func connect(host: String, port: UInt16, timeout: Duration) throws(SocketError) -> TCPSocket {
        var lastError = SocketError.addressResolution(host: host, code: EAI_NONAME)
        for address in try SocketAddress.resolve(host: host, port: port) {
            do {
                return try address.withSockAddr { pointer, length throws(SocketError) in
                    try connect(address: pointer, length: length, family: address.family, timeout: timeout)
                }
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    private static func connect(address: UnsafePointer<sockaddr>, length: socklen_t, family: Int32, timeout: Duration) throws(SocketError) -> TCPSocket {
        let fd = SystemLibrary.socket(family: family, nonBlocking: true)
        guard fd >= 0 else { throw .system(operation: .socket, errno: errno) }
        let socket = TCPSocket(descriptor: fd)
        do throws(SocketError) {
            if SystemLibrary.connect(fd, address, length) != 0 {
                let number = errno
                guard number == EINPROGRESS || number == EINTR else { throw .system(operation: .connect, errno: number) }
                guard try socket.wait(for: Int16(POLLOUT), timeout: timeout, operation: .connect) else {
                    throw .timedOut(operation: .connect)
                }
                var pending: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &size) == 0 else {
                    throw .system(operation: .getsockopt, errno: errno)
                }
                if pending != 0 { throw .system(operation: .connect, errno: pending) }
            }
            SystemLibrary.setNonBlocking(fd, false)
            socket.setNoDelay()
            return socket
        } catch {
            socket.close()
            throw error
        }
    }

    // MARK: - I/O

    /// Reads up to `maxBytes`, waiting at most `timeout` (nil: forever) for data; an empty result means end of stream.
    public func read(maxBytes: Int = 65_536, timeout: Duration?) throws(SocketError) -> [UInt8] {
        guard try wait(for: Int16(POLLIN), timeout: timeout, operation: .read) else { throw .timedOut(operation: .read) }
        var buffer = [UInt8](repeating: 0, count: max(1, maxBytes))
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 {
                buffer.removeSubrange(count...)
                return buffer
            }
            let number = errno
            if number == EINTR { continue }
            if number == EAGAIN || number == EWOULDBLOCK {
                guard try wait(for: Int16(POLLIN), timeout: timeout, operation: .read) else { throw .timedOut(operation: .read) }
                continue
            }
            throw .system(operation: .read, errno: number)
        }
    }

    /// Writes every byte, waiting at most `timeout` (nil: forever) each time the peer is not reading.
    public func write<Bytes: Collection<UInt8>>(_ bytes: Bytes, timeout: Duration?) throws(SocketError) {
        let result: SocketError? = bytes.withContiguousStorageIfAvailable { buffer in
            writeAll(UnsafeRawBufferPointer(buffer), timeout: timeout)
        } ?? Array(bytes).withUnsafeBytes { writeAll($0, timeout: timeout) }
        if let result { throw result }
    }

    private func writeAll(_ buffer: UnsafeRawBufferPointer, timeout: Duration?) -> SocketError? {
        var offset = 0
        while offset < buffer.count {
            do {
                guard try wait(for: Int16(POLLOUT), timeout: timeout, operation: .write) else { return .timedOut(operation: .write) }
            } catch {
                return error
            }
            let count = send(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, SystemLibrary.sendFlags)
            if count >= 0 {
                offset += count
                continue
            }
            let number = errno
            if number == EINTR || number == EAGAIN || number == EWOULDBLOCK { continue }
            return .system(operation: .write, errno: number)
        }
        return nil
    }

    /// Waits until the socket is ready for `events` or `timeout` passes; false on timeout.
    /// Hang-ups and errors count as ready so that the following call reports them.
    public func wait(for events: Int16, timeout: Duration?, operation: SocketOperation = .poll) throws(SocketError) -> Bool {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            var milliseconds: Int32 = -1
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                milliseconds = remaining <= .zero ? 0 : Self.milliseconds(remaining)
            }
            let result = poll(&entry, 1, milliseconds)
            if result > 0 {
                if entry.revents & Int16(POLLNVAL) != 0 { throw .closed }
                return true
            }
            if result == 0 { return false }
            let number = errno
            if number == EINTR { continue }
            throw .system(operation: operation, errno: number)
        }
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1_000)
        if total.overflow { return Int32.max }
        let rounded = total.partialValue.addingReportingOverflow((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        if rounded.overflow { return Int32.max }
        return Int32(clamping: rounded.partialValue)
    }

    // MARK: - Options and teardown

    /// Disables Nagle's algorithm so small writes go out at once.
    public func setNoDelay() {
        var on: Int32 = 1
        _ = setsockopt(descriptor, SystemLibrary.tcpProtocol, TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sets `SO_LINGER` to zero so that `close()` sends a reset (RST) instead of a FIN.
    public func setLingerZero() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Shuts down both directions; wakes any thread blocked on this socket without freeing the descriptor.
    public func shutdown() {
        _ = SystemLibrary.shutdown(descriptor, SystemLibrary.shutdownBoth)
    }

    /// Shuts down the sending direction only: the peer reads end of stream, and this side can still read.
    public func shutdownWrite() {
        _ = SystemLibrary.shutdown(descriptor, SystemLibrary.shutdownWrite)
    }

    /// Closes the descriptor, once: later calls do nothing. Deregister it from its loop first.
    public func close() {
        let open = fd.exchange(-1, ordering: .acquiringAndReleasing)
        if open >= 0 { _ = SystemLibrary.close(open) }
    }
}
