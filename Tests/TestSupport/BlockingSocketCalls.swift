import EventLoopIO

/// Calls that wait, for tests that play a scripted client or server on their own thread: each
/// waits for readiness with `poll`, up to a timeout. The library's sockets never wait (their
/// event loop does); these exist only here.
extension TCPSocket {
    /// Resolves `host` and connects to the first address that answers, each attempt bounded by `timeout`.
    public static func connect(host: String, port: UInt16, timeout: Duration) throws(SocketError) -> TCPSocket {
        var lastError = SocketError.addressResolution(host: host, code: EAI_NONAME)
        for address in try SocketAddress.resolve(host: host, port: port) {
            do throws(SocketError) {
                let (socket, inProgress) = try TCPSocket.startConnect(to: address)
                guard inProgress else { return socket }
                do throws(SocketError) {
                    guard try socket.wait(for: Int16(POLLOUT), timeout: timeout, operation: .connect) else {
                        throw .timedOut(operation: .connect)
                    }
                    let number = socket.connectionError()
                    guard number == 0 else { throw .system(operation: .connect, errno: number) }
                    return socket
                } catch {
                    socket.close()
                    throw error
                }
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// Waits up to `timeout` (nil: forever) for a connection and accepts it; nil on timeout.
    public func accept(timeout: Duration?) throws(SocketError) -> TCPSocket? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            switch accept() {
            case .connection(let socket): return socket
            case .failed(let number): throw .system(operation: .accept, errno: number)
            case .none:
                let remaining = deadline.map { ContinuousClock.now.duration(to: $0) }
                if let remaining, remaining <= .zero { return nil }
                guard try wait(for: Int16(POLLIN), timeout: remaining, operation: .accept) else { return nil }
            }
        }
    }

    /// Reads up to `maxBytes`, waiting at most `timeout` (nil: forever) for data; an empty result
    /// means end of stream.
    public func read(maxBytes: Int = 65_536, timeout: Duration?) throws(SocketError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(1, maxBytes))
        while true {
            switch buffer.withUnsafeMutableBytes({ receive(into: $0) }) {
            case .transferred(let count):
                buffer.removeSubrange(count...)
                return buffer
            case .endOfStream:
                return []
            case .failed(let number):
                throw .system(operation: .read, errno: number)
            case .wouldBlock:
                guard try wait(for: Int16(POLLIN), timeout: timeout, operation: .read) else { throw .timedOut(operation: .read) }
            }
        }
    }

    /// Writes every byte, waiting at most `timeout` (nil: forever) each time the peer is not reading.
    public func write<Bytes: Collection<UInt8>>(_ bytes: Bytes, timeout: Duration?) throws(SocketError) {
        let all = Array(bytes)
        var offset = 0
        while offset < all.count {
            let result = all.withUnsafeBytes { sendSome(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            switch result {
            case .transferred(let count):
                offset += count
            case .failed(let number):
                throw .system(operation: .write, errno: number)
            case .wouldBlock, .endOfStream:
                guard try wait(for: Int16(POLLOUT), timeout: timeout, operation: .write) else { throw .timedOut(operation: .write) }
            }
        }
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
                milliseconds = remaining <= .zero ? 0 : Int32(clamping: remaining.components.seconds * 1_000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
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
}
