/// Single non-blocking steps on a socket, for an event loop that waits for readiness itself.
extension TCPSocket {
    /// What a non-blocking read or write did.
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

    /// Opens a non-blocking socket for `address` and starts connecting. Returns the socket and
    /// whether the connection is still in progress (wait for writability, then `connectionError()`).
    public static func startConnect(to address: SocketAddress) throws(SocketError) -> (socket: TCPSocket, inProgress: Bool) {
        let fd = SystemLibrary.socket(family: address.family, nonBlocking: true)
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

    /// Whether the peer closed an idle connection or sent something unasked (a zero-time poll):
    /// either way it cannot carry a new request.
    public var isReadableOrClosed: Bool {
        (try? wait(for: Int16(POLLIN), timeout: .zero)) ?? true
    }
}
