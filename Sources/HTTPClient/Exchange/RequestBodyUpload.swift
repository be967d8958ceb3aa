import HTTPWire

/// The request body of one attempt going out, as a value: it decides how the body is had (none,
/// bytes in memory read on the loop, a file or stream opened and read off the loop), how the head
/// frames it and each piece is framed (as is under `Content-Length`, chunked with a terminator
/// when the length is unknown), when it is over, how much of it went out, what a file or stream
/// that fails to open or read turns into, and which late results of work off the loop belong to
/// an attempt given up. `SocketExchange` performs the actions and keeps the reader and the bytes.
struct RequestBodyUpload: Sendable {
    /// Where the body comes from.
    enum Source: Equatable, Sendable {
        /// No body.
        case none
        /// Bytes in memory, read on the loop.
        case inMemory
        /// A file or a caller's stream, opened and read off the loop (never on it: it may block).
        case offLoop
    }

    enum State: Equatable, Sendable {
        /// No attempt, or its body given up.
        case idle
        /// The file or stream is being opened off the loop; the head waits for its length.
        case opening
        /// Pieces go out as the socket takes them.
        case sending
        /// A piece is being read off the loop; the socket is not written meanwhile.
        case reading
        /// The last piece (or the head alone) is in the output: once it is out, so is the request.
        case lastPiece
        /// The whole request went out.
        case written
        /// The file or stream failed: the exchange reports `uploadFailed`.
        case failed
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Opens the file or stream off the loop; the outcome goes to `opened` with `generation`.
        case open(generation: Int)
        /// Makes the head (framed by `headPrepared`) and writes it.
        case sendHead
        /// Closes a reader opened for an attempt given up.
        case discard
        /// Counts `sent` body bytes out (upload progress).
        case reportProgress(sent: Int64)
        /// Reads the next piece now (bytes in memory); it goes to `pieceRead`.
        case readNow
        /// Reads the next piece off the loop, watching the socket for an early answer only; it
        /// goes to `pieceRead` with `generation`.
        case readOffLoop(generation: Int)
        /// Writes this piece, framed.
        case write([UInt8])
        /// The whole request is out: only the answer is left.
        case requestWritten
        /// Gives the connection back unreused and reports `uploadFailed` with the reader's error.
        case failUpload
    }

    private(set) var state = State.idle
    /// Counts the attempts' readers, so that the late outcome of one given up is told apart.
    private(set) var generation = 0
    private(set) var source = Source.none
    private(set) var chunked = false
    /// Body bytes that went out in this attempt.
    private(set) var sent: Int64 = 0
    /// Body bytes in the piece being written (counted in `sent` once it is out).
    private(set) var pieceBytes = 0

    /// A connection is ready for a new attempt with the body from `source`.
    mutating func attemptStarted(_ source: Source) -> Action {
        generation &+= 1
        self.source = source
        guard source == .offLoop else { return .sendHead }
        state = .opening
        return .open(generation: generation)
    }

    /// The file or stream was opened (`succeeded`) or not, for `generation`; `cancelled` when
    /// the exchange ended or stopped sending meanwhile.
    mutating func opened(generation: Int, succeeded: Bool, cancelled: Bool = false) -> Action? {
        guard generation == self.generation, state == .opening, !cancelled else { return succeeded ? .discard : nil }
        guard succeeded else { return failed() }
        return .sendHead
    }

    /// The head is being made: how it frames the body (`length` nil when unknown), and the
    /// attempt's counts start over.
    mutating func headPrepared(hasBody: Bool, length: Int64?) -> SocketRequestEncoding.BodyFraming {
        sent = 0
        pieceBytes = 0
        chunked = hasBody && length == nil
        state = hasBody ? .sending : .lastPiece
        guard hasBody else { return .length(0) }
        return length.map { .length($0) } ?? .chunked
    }

    /// Everything in the output went out: the progress, then what comes next.
    mutating func outputWritten() -> [Action] {
        var actions: [Action] = []
        if pieceBytes > 0 {
            sent += Int64(pieceBytes)
            pieceBytes = 0
            actions.append(.reportProgress(sent: sent))
        }
        switch state {
        case .lastPiece:
            state = .written
            actions.append(.requestWritten)
        case .sending where source == .offLoop:
            state = .reading
            actions.append(.readOffLoop(generation: generation))
        case .sending:
            actions.append(.readNow)
        case .idle, .opening, .reading, .written, .failed:
            break
        }
        return actions
    }

    /// Whether the socket may be written (no piece is being read off the loop).
    var writable: Bool { state != .reading }

    /// A piece was read (`bytes` nil when the read failed), for `generation`; empty at the end
    /// of the body. `cancelled` when the exchange ended or stopped sending meanwhile.
    mutating func pieceRead(_ bytes: [UInt8]?, generation: Int, cancelled: Bool = false) -> Action? {
        let expected: State = source == .offLoop ? .reading : .sending
        guard generation == self.generation, state == expected, !cancelled else { return nil }
        guard let bytes else { return failed() }
        pieceBytes = bytes.count
        state = bytes.isEmpty ? .lastPiece : .sending
        guard chunked else { return .write(bytes) }
        return .write(bytes.isEmpty ? ChunkedEncoder.end() : ChunkedEncoder.chunk(bytes))
    }

    /// The attempt's body is given up (the exchange retries, redirects or ends): late outcomes
    /// of its reader are ignored.
    mutating func abandon() {
        generation &+= 1
        state = .idle
    }

    private mutating func failed() -> Action {
        state = .failed
        return .failUpload
    }
}
