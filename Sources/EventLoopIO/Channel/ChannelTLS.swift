import Foundation
import SystemTLS

/// TLS between a channel's socket and its owner's HTTP machine, client or server: a `TLSMachine`
/// and what its actions become, as steps, pumped once for both. The owner hands it the ciphertext
/// it read and the plaintext it writes; it answers with ciphertext for the socket, plaintext for
/// the owner, the handshake's end, or a failure (which ends the connection, without
/// `close_notify`). Ending our side is the channel's (`Channel.close()` sends `close_notify`
/// through `close()`). A channel holds it (`Channel.tls`) and queues its records itself
/// (`Channel.unseal`, `Channel.seal`).
///
/// Through an HTTPS proxy the machine's records travel inside a second TLS connection, to the
/// proxy (`carrier`, established before the tunnel was asked for): the machine's output is sealed
/// again by the carrier, and the carrier's plaintext is the machine's ciphertext. The carrier's
/// end (its `close_notify`, or the socket's end) is the end of the machine's stream.
///
/// The peer's end (its `close_notify`, or the socket's end of stream without one) is held until
/// the owner reads again (`takeEnd()`): plaintext that came with it goes first, and an answer
/// still being written is written, as on a plain socket, whose end of stream the owner meets
/// only when it reads.
///
/// Not thread-safe: the channel's loop drives it.
public struct ChannelTLS {
    /// What the owner does, in order.
    public enum Step: Equatable, Sendable {
        /// Writes these bytes to the socket, after any output before them (the channel's own
        /// methods queue these and hand the owner none).
        case send([UInt8])
        /// Hands this plaintext to the owner's machine.
        case deliver(ArraySlice<UInt8>)
        /// The handshake completed.
        case handshakeCompleted(TLSHandshake)
        /// TLS failed: what went before (the alert) is sent as far as the socket takes it at
        /// once, then the connection closes without `close_notify`.
        case failed(TLSFailure)
    }

    /// The TLS connection the owner's plaintext goes through (the origin's, through a proxy).
    public let machine: TLSMachine
    /// The TLS connection to an HTTPS proxy that carries `machine`'s records, if any.
    public let carrier: TLSMachine?
    /// How the peer's side ended; not yet told to the owner.
    private var endHeld: TLSMachine.Closure?

    /// TLS through `machine` (a client's or a server's, not started), inside `carrier`'s
    /// connection when given (the channel's TLS to an HTTPS proxy, established).
    public init(machine: TLSMachine, inside carrier: ChannelTLS? = nil) {
        self.machine = machine
        self.carrier = carrier?.machine
    }

    /// Whether the handshake completed and no side has ended yet.
    public var isEstablished: Bool { machine.state == .established }

    /// A client's first flight (its ClientHello); nothing for a server, which waits for one.
    public mutating func start() -> [Step] {
        steps(machine.start())
    }

    /// The ciphertext read from the socket.
    public mutating func received(ciphertext: some ContiguousBytes) -> [Step] {
        guard let carrier else { return steps(machine.receive(ciphertext: ciphertext)) }
        return carried(carrier.receive(ciphertext: ciphertext))
    }

    /// The socket's end of stream.
    public mutating func receivedEndOfStream() -> [Step] {
        guard let carrier else { return steps(machine.receiveEndOfStream()) }
        return carried(carrier.receiveEndOfStream())
    }

    /// How the peer's side ended, when that waits for the owner (`.clean`: with `close_notify`);
    /// taken once.
    public mutating func takeEnd() -> TLSMachine.Closure? {
        defer { endHeld = nil }
        return endHeld
    }

    /// The owner's output, encrypted: a `.send`, all but its last `withholding` bytes when asked
    /// (cutting the connection inside its last record), or a `.failed`. Nothing once either side
    /// ended TLS, or before the handshake completed (the records follow it).
    public func seal(_ plaintext: ArraySlice<UInt8>, withholding: Int = 0) -> [Step] {
        var steps: [Step] = []
        for action in machine.send(plaintext: plaintext) {
            switch action {
            case .write(let bytes): steps += sealed(bytes)
            case .failed(let failure): steps.append(.failed(failure))
            case .deliver, .handshakeCompleted, .closed: break  // sending only writes or fails
            }
        }
        guard withholding > 0 else { return steps }
        var remaining = withholding
        for index in steps.indices.reversed() where remaining > 0 {
            guard case .send(let bytes) = steps[index] else { continue }
            let kept = max(0, bytes.count - remaining)
            remaining -= bytes.count - kept
            steps[index] = .send(Array(bytes[..<kept]))
        }
        return steps.filter { $0 != .send([]) }
    }

    /// Our `close_notify`, then the carrier's, as bytes for the socket (nothing for a side not
    /// established).
    public func close() -> [UInt8] {
        var bytes: [UInt8] = []
        for case .write(let written) in machine.close() {
            for case .send(let records) in sealed(written) { bytes += records }
        }
        if let carrier {
            for case .write(let written) in carrier.close() { bytes += written }
        }
        return bytes
    }

    /// `bytes` the machine wrote, as they go to the socket: sealed again by the carrier.
    private func sealed(_ bytes: [UInt8]) -> [Step] {
        guard let carrier else { return [.send(bytes)] }
        var steps: [Step] = []
        for action in carrier.send(plaintext: bytes) {
            switch action {
            case .write(let records): steps.append(.send(records))
            case .failed(let failure): steps.append(.failed(failure))
            case .deliver, .handshakeCompleted, .closed: break  // sending only writes or fails
            }
        }
        return steps
    }

    /// The carrier's actions on what the socket brought: its records to send, and its plaintext
    /// (the machine's ciphertext) or its end (the machine's end of stream) through the machine.
    private mutating func carried(_ actions: [TLSMachine.Action]) -> [Step] {
        var steps: [Step] = []
        for action in actions {
            switch action {
            case .write(let records): steps.append(.send(records))
            case .deliver(let ciphertext): steps += self.steps(machine.receive(ciphertext: ciphertext))
            case .closed: steps += self.steps(machine.receiveEndOfStream())
            case .failed(let failure): steps.append(.failed(failure))
            case .handshakeCompleted: break  // the carrier was established before it carried anything
            }
        }
        return steps
    }

    /// The machine's actions as steps, holding the peer's end.
    private mutating func steps(_ actions: [TLSMachine.Action]) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(actions.count)
        for action in actions {
            switch action {
            case .write(let bytes): steps += sealed(bytes)
            case .deliver(let plaintext): steps.append(.deliver(plaintext))
            case .handshakeCompleted(let handshake): steps.append(.handshakeCompleted(handshake))
            case .closed(let closure): endHeld = closure
            case .failed(let failure): steps.append(.failed(failure))
            }
        }
        return steps
    }
}

extension Channel {
    /// Starts TLS (the channel's `tls`, set by the owner) and queues its first flight.
    public func startTLS() -> [ChannelTLS.Step] {
        queueRecords(tls?.start() ?? [])
    }

    /// Decrypts `ciphertext` read from the socket: TLS's records (answers, alerts) are queued,
    /// the rest is the owner's. The peer's end waits in `tls` (`takeEnd()`).
    public func unseal(_ ciphertext: some ContiguousBytes) -> [ChannelTLS.Step] {
        queueRecords(tls?.received(ciphertext: ciphertext) ?? [])
    }

    /// The socket's end of stream, through TLS (its end then waits in `tls`).
    public func unsealEndOfStream() -> [ChannelTLS.Step] {
        queueRecords(tls?.receivedEndOfStream() ?? [])
    }

    /// Encrypts `plaintext` and queues its records but the last `withholding` bytes; the
    /// failure when TLS failed (its alert queued before it).
    public func seal(_ plaintext: ArraySlice<UInt8>, withholding: Int = 0) -> TLSFailure? {
        var failure: TLSFailure?
        for step in queueRecords(tls?.seal(plaintext, withholding: withholding) ?? []) {
            if case .failed(let error) = step { failure = error }
        }
        return failure
    }

    /// Queues the `.send` steps; returns the others, in order.
    private func queueRecords(_ steps: [ChannelTLS.Step]) -> [ChannelTLS.Step] {
        var rest: [ChannelTLS.Step] = []
        for step in steps {
            if case .send(let records) = step {
                queue(records[...])
            } else {
                rest.append(step)
            }
        }
        return rest
    }
}
