import SystemTLS

/// A connection's byte side on one loop for its whole life: its socket, its TLS machine once
/// secured, the bytes queued for it that the socket has not taken yet (partial writes keep the
/// rest), what the loop watches it for (read interest is the owner's backpressure), its one timer
/// (moved lazily, re-armed when it fires early) and its one close path (the queue flushed as far
/// as the socket takes it, `close_notify` when secured, then closed). The decisions are
/// `machine`'s; this performs them.
///
/// The owner (`handler`) hears readiness through `EventLoopHandler` and its timer through
/// `channelDeadlinePassed()`, and reads and writes through the channel. The owner may change
/// (`handOver(to:)`: a client's connection goes from the request using it to its pool's watcher
/// and back); the socket, its queue and its registration stay the channel's. Everything runs on
/// `loop`'s thread (checked in debug builds).
public final class Channel: @unchecked Sendable {
    // @unchecked: the `var`s are touched only on `loop`'s thread (checked in debug builds); the
    // `let`s are immutable and Sendable.
    public let socket: TCPSocket
    public let loop: EventLoop
    private weak var handler: (any ChannelHandler)?
    private var machine = ChannelMachine()
    /// Bytes for the socket that it has not taken yet, in the slices they were queued as (none
    /// copied: a flush hands several to one `sendmsg`).
    private var output: [ArraySlice<UInt8>] = []
    /// The bytes in `output`.
    private var outputCount = 0
    private var timer: Scheduled?
    /// TLS on the socket (nil: plain, or not secured yet): the owner pumps records through it
    /// (`unseal`, `seal`); closing ends it with `close_notify`.
    public var tls: ChannelTLS?

    /// What writing the queued bytes came to.
    public enum Flush: Equatable, Sendable {
        /// Every queued byte is out.
        case done
        /// The socket takes no more now: the channel is watched for room.
        case wouldBlock
        /// The socket failed with `errno` (the peer is gone), or the channel is closed; the
        /// queue is dropped.
        case failed(errno: Int32)

        /// Whether the socket failed (or the channel is closed).
        public var isFailed: Bool {
            if case .failed = self { true } else { false }
        }
    }

    /// A channel for `socket` on `loop`, telling `handler` (nil: an owner comes later, through
    /// `handOver(to:)`); watched for nothing yet.
    public init(socket: TCPSocket, loop: EventLoop, handler: (any ChannelHandler)? = nil) {
        self.socket = socket
        self.loop = loop
        self.handler = handler
    }

    /// Makes `handler` the channel's owner: it hears the socket's readiness (the registration,
    /// if any, moves to it with what it watches for) and the timer from now on.
    public func handOver(to handler: any ChannelHandler) {
        loop.assertInLoop()
        self.handler = handler
        _ = apply(machine.ownerChanged(pending: !output.isEmpty))
    }

    /// Whether the channel is closed.
    public var isClosed: Bool { machine.isClosed }

    /// Whether the owner's current wait reads the socket.
    public var isReading: Bool { machine.reading }

    /// Whether bytes wait for the socket.
    public var hasPendingWrites: Bool { !output.isEmpty }

    /// How many bytes wait for the socket.
    public var pendingWriteCount: Int { outputCount }

    /// Watches the socket for bytes (`true`) or not (backpressure); for room while bytes wait.
    /// Returns false when the loop refused to watch it (the owner closes the channel).
    @discardableResult
    public func setReading(_ reading: Bool) -> Bool {
        loop.assertInLoop()
        guard !machine.isClosed else { return false }
        return apply(machine.interest(reading: reading, pending: !output.isEmpty))
    }

    /// Watches the socket for nothing, and clears the wait, while the channel waits for its next
    /// owner (`handOver(to:)`; its `setReading` watches it again, for room too while bytes are
    /// queued): the owner letting go hears nothing more of it.
    public func unwatch() {
        loop.assertInLoop()
        guard !machine.isClosed else { return }
        apply(machine.deadline(nil))
        _ = apply(machine.unwatch())
    }

    /// Queues `bytes` behind those waiting, without copying them (nothing once our side is shut
    /// or closed).
    public func queue(_ bytes: ArraySlice<UInt8>) {
        loop.assertInLoop()
        guard machine.acceptsOutput, !bytes.isEmpty else { return }
        output.append(bytes)
        outputCount += bytes.count
    }

    /// Writes what the socket takes of the queue now; watched for room while bytes remain.
    public func flush() -> Flush {
        loop.assertInLoop()
        guard !machine.isClosed else { return .failed(errno: 0) }
        while !output.isEmpty {
            switch sendSome() {
            case .transferred(let count):
                dropSent(count)
            case .wouldBlock, .endOfStream:
                return apply(machine.interest(reading: machine.reading, pending: true)) ? .wouldBlock : .failed(errno: 0)
            case .failed(let number):
                dropOutput()
                return .failed(errno: number)
            }
        }
        _ = apply(machine.interest(reading: machine.reading, pending: false))
        return .done
    }

    /// Writes what the socket takes now from the front of the queue: one slice as it is, several
    /// (up to `TCPSocket.maximumVectors`) in one call.
    private func sendSome() -> TCPSocket.IOResult {
        if output.count == 1 { return output[0].withUnsafeBytes { socket.sendSome($0) } }
        return socket.sendSome(output.prefix(TCPSocket.maximumVectors))
    }

    /// Drops the `count` bytes the socket took from the front of the queue.
    private func dropSent(_ count: Int) {
        outputCount -= count
        var left = count
        var taken = 0
        while left > 0, left >= output[taken].count {
            left -= output[taken].count
            taken += 1
        }
        if taken == output.count {
            output.removeAll(keepingCapacity: true)
            return
        }
        output.removeFirst(taken)
        output[0].removeFirst(left)
    }

    /// Drops every byte queued.
    private func dropOutput() {
        output.removeAll()
        outputCount = 0
    }

    /// Gives the owner's current wait until `timeout` from now (nil: none).
    public func setTimeout(_ timeout: Duration?) {
        setDeadline(timeout.map { MonotonicTime.now + $0 })
    }

    /// Gives the owner's current wait until `deadline` (nil: none). A timer armed earlier is
    /// kept and arms itself again for the rest when it fires.
    public func setDeadline(_ deadline: MonotonicTime?) {
        loop.assertInLoop()
        guard !machine.isClosed else { return }
        apply(machine.deadline(deadline))
    }

    /// Shuts our side for writing after what the socket takes of the queue now and, when
    /// secured, a `close_notify` (a lingering close): the peer reads the end, and nothing more is
    /// queued.
    public func shutdownWrite() {
        loop.assertInLoop()
        queueCloseNotify()
        sendWhatTheSocketTakes()
        socket.shutdownWrite()
        machine.writeShut()
    }

    /// The one close path: a `close_notify` when secured goes behind the queue, as much as the
    /// socket takes now is written (a peer that reads nothing more loses nothing), the timer is
    /// cancelled, the socket unwatched and closed. Idempotent.
    public func close() {
        loop.assertInLoop()
        guard !machine.isClosed else { return }
        queueCloseNotify()
        sendWhatTheSocketTakes()
        switch machine.close() {
        case .close(let cancelTimer, let deregister):
            if cancelTimer { timer?.cancel() }
            timer = nil
            if deregister { loop.deregister(socket) }
            socket.close()
        case .alreadyClosed:
            break
        }
    }

    /// Closes without flushing anything and without `close_notify` (a reset, a failed TLS
    /// connection, a fault that cuts, a peer already gone). Idempotent.
    public func abort() {
        loop.assertInLoop()
        dropOutput()
        tls = nil
        close()
    }

    /// Sends what the socket takes of the queue now, without waiting, and drops the rest.
    public func sendWhatTheSocketTakes() {
        loop.assertInLoop()
        while !output.isEmpty, case .transferred(let count) = sendSome() {
            dropSent(count)
        }
        dropOutput()
    }

    /// Queues TLS's `close_notify` (nothing when not secured, or when a side ended TLS already).
    private func queueCloseNotify() {
        guard let tls else { return }
        let bytes = tls.close()
        if !bytes.isEmpty { queue(bytes[...]) }
    }

    // MARK: - Performing the machine's decisions

    private func apply(_ interest: ChannelMachine.Interest) -> Bool {
        switch interest {
        case .unchanged:
            return true
        case .register(let readable, let writable):
            guard let handler, loop.register(socket, readable: readable, writable: writable, handler: handler) == 0 else {
                machine.registrationRefused()
                return false
            }
            return true
        case .change(let readable, let writable):
            loop.setInterest(socket, readable: readable, writable: writable)
            return true
        case .deregister:
            loop.deregister(socket)
            return true
        }
    }

    private func apply(_ change: ChannelMachine.TimerChange) {
        switch change {
        case .keep:
            break
        case .cancel:
            timer?.cancel()
            timer = nil
        case .arm(let due):
            timer?.cancel()
            arm(at: due)
        }
    }

    private func arm(at due: MonotonicTime) {
        timer = loop.schedule(at: due) { [self] in timerFired() }
    }

    private func timerFired() {
        loop.assertInLoop()
        timer = nil
        switch machine.timerFired(now: MonotonicTime.now) {
        case .rearm(let due):
            arm(at: due)
        case .expired:
            handler?.channelDeadlinePassed()
        }
    }
}

/// The owner of a `Channel`: hears its socket's readiness and its timer, on the channel's loop.
public protocol ChannelHandler: EventLoopHandler {
    /// The wait given with `setTimeout` ran out.
    func channelDeadlinePassed()
}
