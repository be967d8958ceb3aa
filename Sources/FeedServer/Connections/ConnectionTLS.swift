import Foundation
import SystemTLS

/// TLS between a server connection's socket and its HTTP machine: a `TLSMachine(server:)` and
/// what the driver does with its actions, as steps. The driver hands it the ciphertext it read
/// and the plaintext the HTTP machine writes; it answers with ciphertext for the socket,
/// plaintext for the HTTP machine, the handshake's end, or a failure (which ends the connection,
/// without `close_notify`). Ending our side is the channel's (`Channel.close()` sends
/// `close_notify` through the same machine).
///
/// The peer's end (its `close_notify`, or the socket's end of stream without one) is held until
/// the HTTP machine reads again (`takeEnd()`): plaintext that came with it goes first, and an
/// answer still being written is written, as on a plain socket, whose end of stream the HTTP
/// machine meets only when it reads.
///
/// Not thread-safe: the connection's loop drives it, as it drives the machine.
struct ConnectionTLS {
    /// What the driver does, in order.
    enum Step: Equatable {
        /// Writes these bytes to the socket, after any output before them.
        case send([UInt8])
        /// Hands this plaintext to the HTTP machine (`bytesRead`).
        case deliver(ArraySlice<UInt8>)
        /// The handshake completed (the server counts it).
        case handshakeCompleted(TLSHandshake)
        /// TLS failed: what went before (the alert) is sent as far as the socket takes it at
        /// once, then the connection closes without `close_notify`.
        case failed(TLSFailure)
    }

    /// The TLS connection, which the channel also holds for its close path (`close_notify`).
    let machine: TLSMachine
    /// The peer's side ended; not yet told to the HTTP machine.
    private var endHeld = false

    /// A connection accepting a client's handshake with `context`'s certificate.
    /// - Throws: `.internalError` when OpenSSL cannot allocate the connection.
    init(context: TLSServerContext) throws(TLSFailure) {
        machine = try TLSMachine(server: context)
    }

    /// Whether the handshake completed and no side has ended yet.
    var isEstablished: Bool { machine.state == .established }

    /// The ciphertext read from the socket.
    mutating func received(ciphertext: UnsafeRawBufferPointer) -> [Step] {
        steps(machine.receive(ciphertext: ciphertext))
    }

    /// The socket's end of stream.
    mutating func receivedEndOfStream() -> [Step] {
        steps(machine.receiveEndOfStream())
    }

    /// Whether the peer's end is waiting for the HTTP machine (`endOfStream`); taken once.
    mutating func takeEnd() -> Bool {
        defer { endHeld = false }
        return endHeld
    }

    /// The HTTP machine's output, encrypted: a `.send`, all but its last `withholding` bytes
    /// when asked (cutting the connection inside its last record), or a `.failed`. Nothing once
    /// either side ended TLS.
    func seal(_ plaintext: ArraySlice<UInt8>, withholding: Int = 0) -> [Step] {
        var steps: [Step] = []
        for action in machine.send(plaintext: plaintext) {
            switch action {
            case .write(let bytes): steps.append(.send(bytes))
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

    /// The machine's actions as steps, holding the peer's end.
    private mutating func steps(_ actions: [TLSMachine.Action]) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(actions.count)
        for action in actions {
            switch action {
            case .write(let bytes): steps.append(.send(bytes))
            case .deliver(let plaintext): steps.append(.deliver(plaintext))
            case .handshakeCompleted(let handshake): steps.append(.handshakeCompleted(handshake))
            case .closed: endHeld = true
            case .failed(let failure): steps.append(.failed(failure))
            }
        }
        return steps
    }
}
