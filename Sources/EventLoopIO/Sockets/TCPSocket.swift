import Synchronization

/// A non-blocking TCP socket with one owner, who registers it on an event loop and calls
/// `close()` there.
///
/// Closing happens once (later calls do nothing) and leaves `descriptor` at -1, so a closed socket
/// can never reach a descriptor number the system has since given to another connection. Debug
/// builds stop when a socket that was never closed is freed (a leaked descriptor). Every call
/// returns at once: reads and writes say `wouldBlock` instead of waiting, and waiting is the
/// event loop's. Two sockets are equal when they are the same object.
public final class TCPSocket: Sendable, Hashable {
    private let fd: Atomic<Int32>

    /// The descriptor, for the event loop; -1 once closed.
    public var descriptor: Int32 { fd.load(ordering: .acquiring) }

    /// Takes over `descriptor` (an open, non-blocking TCP socket); the caller then owns the
    /// socket's `close()`.
    init(descriptor: Int32) {
        fd = Atomic(descriptor)
    }

    deinit {
        assert(fd.load(ordering: .relaxed) < 0, "leak of an open socket (descriptor \(fd.load(ordering: .relaxed))): close it before letting go of it")
    }

    /// Whether two values are the same socket object.
    public static func == (lhs: TCPSocket, rhs: TCPSocket) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// What a non-blocking call did.
    public enum IOResult: Sendable, Equatable {
        /// This many bytes moved (a read of 0 is `.endOfStream` instead).
        case transferred(Int)
        /// The peer closed its sending side (reads only).
        case endOfStream
        /// Nothing could move now; wait for readiness.
        case wouldBlock
        /// The call failed with this `errno`.
        case failed(Int32)
    }

    // MARK: - Server side

    /// Creates a socket bound to `host` (an IPv4 literal) and `port` (0 lets the kernel pick) and
    /// listens; `accept()` takes its connections once the loop says it is readable.
    public static func listen(host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 512) throws(SocketError) -> TCPSocket {
        let fd = SystemLibrary.socket(family: AF_INET)
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
        return try listening(socket, bound: bound, backlog: backlog)
    }

    /// `socket` listening, after its `bind` returned `bound`; closed and thrown when the bind or
    /// the listen failed.
    static func listening(_ socket: TCPSocket, bound: Int32, backlog: Int32) throws(SocketError) -> TCPSocket {
        guard bound == 0 else {
            let number = errno
            socket.close()
            throw .system(operation: .bind, errno: number)
        }
        guard SystemLibrary.listen(socket.descriptor, backlog) == 0 else {
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

    /// What `accept()` found.
    public enum Accepted: Sendable {
        /// A new connection (non-blocking, close-on-exec, Nagle off), owned by the caller.
        case connection(TCPSocket)
        /// None is waiting now (or one went away before it was taken): wait for readability.
        case none
        /// The call failed with this `errno` (`EMFILE` when the process has no descriptor left).
        case failed(Int32)
    }

    /// Takes the next waiting connection, without waiting.
    public func accept() -> Accepted {
        while true {
            let accepted = SystemLibrary.accept(descriptor)
            if accepted >= 0 {
                let socket = TCPSocket(descriptor: accepted)
                socket.setNoDelay()
                return .connection(socket)
            }
            let number = errno
            if number == EINTR { continue }
            if number == EAGAIN || number == EWOULDBLOCK || number == ECONNABORTED { return .none }
            return .failed(number)
        }
    }

    // MARK: - Client side

    /// Opens a socket for `address` and starts connecting. Returns the socket and whether the
    /// connection is still in progress (wait for writability, then `connectionError()`).
    public static func startConnect(to address: SocketAddress) throws(SocketError) -> (socket: TCPSocket, inProgress: Bool) {
        let fd = SystemLibrary.socket(family: address.family)
        guard fd >= 0 else { throw .system(operation: .socket, errno: errno) }
        let socket = TCPSocket(descriptor: fd)
        while true {
            let result = address.withSockAddr { SystemLibrary.connect(fd, $0, $1) }
            if result == 0 {
                socket.setNoDelay()
                return (socket, false)
            }
            let number = errno
            if number == EINTR { continue }
            if number == EINPROGRESS { return (socket, true) }
            socket.close()
            throw .system(operation: .connect, errno: number)
        }
    }

    /// The outcome of a connection attempt that was in progress: 0 when connected, else its `errno`.
    public func connectionError() -> Int32 {
        var pending: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &size) == 0 else { return errno }
        if pending == 0 { setNoDelay() }
        return pending
    }

    // MARK: - I/O

    /// Reads what is available into `buffer` without waiting.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .transferred(count) }
            if count == 0 { return .endOfStream }
            let number = errno
            if number == EINTR { continue }
            if number == EAGAIN || number == EWOULDBLOCK { return .wouldBlock }
            return .failed(number)
        }
    }

    /// Writes what the kernel takes now from `buffer`, without waiting and without `SIGPIPE`.
    public func sendSome(_ buffer: UnsafeRawBufferPointer) -> IOResult {
        guard buffer.count > 0 else { return .transferred(0) }
        while true {
            let count = send(descriptor, buffer.baseAddress, buffer.count, SystemLibrary.sendFlags)
            if count >= 0 { return .transferred(count) }
            let number = errno
            if number == EINTR { continue }
            if number == EAGAIN || number == EWOULDBLOCK { return .wouldBlock }
            return .failed(number)
        }
    }

    /// How many slices one `sendSome(_:)` of several hands to the kernel at most.
    public static let maximumVectors = 16

    /// Writes what the kernel takes now from `slices` in order, in one `sendmsg` (the first
    /// `maximumVectors` of them), without waiting and without `SIGPIPE`.
    public func sendSome(_ slices: ArraySlice<ArraySlice<UInt8>>) -> IOResult {
        var vectors: [iovec] = []
        vectors.reserveCapacity(Swift.min(slices.count, Self.maximumVectors))
        return withVectors(slices.prefix(Self.maximumVectors), &vectors) { vectors in
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = .init(vectors.count)
            while true {
                let count = sendmsg(descriptor, &message, SystemLibrary.sendFlags)
                if count >= 0 { return .transferred(count) }
                let number = errno
                if number == EINTR { continue }
                if number == EAGAIN || number == EWOULDBLOCK { return .wouldBlock }
                return .failed(number)
            }
        }
    }

    /// Runs `body` with an `iovec` for each slice, each valid for the call (one nested
    /// `withUnsafeBytes` a slice).
    private func withVectors(_ slices: ArraySlice<ArraySlice<UInt8>>, _ vectors: inout [iovec],
                             _ body: (UnsafeMutableBufferPointer<iovec>) -> IOResult) -> IOResult {
        guard let first = slices.first else { return vectors.withUnsafeMutableBufferPointer { body($0) } }
        return first.withUnsafeBytes { bytes in
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
            return withVectors(slices.dropFirst(), &vectors, body)
        }
    }

    /// Whether the peer closed an idle connection or sent something unasked (a peek that does not
    /// wait): either way it cannot carry a new request.
    public var isReadableOrClosed: Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count >= 0 { return true }
            let number = errno
            if number == EINTR { continue }
            return !(number == EAGAIN || number == EWOULDBLOCK)
        }
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

    /// Shuts down both directions.
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
