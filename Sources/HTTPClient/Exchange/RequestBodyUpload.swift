import HTTPWire

/// The request body of one attempt going out, as a value: it decides how the body is had (none,
/// bytes in memory read on the loop, a file or stream opened and read off the loop), how the head
/// frames it and each piece is framed (as is under `Content-Length`, chunked with a terminator
/// when the length is unknown), when it is over, how much of it went out, and what a file or
/// stream that fails to open or read turns into. `ExchangeMachine` carries one per attempt in its
/// sending phase (and tells late results of an attempt given up by their generation);
/// `SocketExchange` keeps the reader and the bytes.
struct RequestBodyUpload: Equatable, Sendable {
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
        /// No attempt yet.
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

    /// What an open file or stream leads to.
    enum Opened: Equatable, Sendable {
        /// Makes the head (framed by `headPrepared`) and writes it.
        case sendHead
        /// The exchange fails with `uploadFailed`.
        case failUpload
        /// Closes a reader that is not wanted any more.
        case discard
    }

    /// What follows an output all written.
    enum Next: Equatable, Sendable {
        /// Reads the next piece now (bytes in memory); it goes to `pieceRead`.
        case readNow
        /// Reads the next piece off the loop; it goes to `pieceRead`.
        case readOffLoop
        /// The whole request is out.
        case requestWritten
        /// Nothing: a piece is being read, or the body failed.
        case wait
    }

    /// What a piece read leads to.
    enum Piece: Equatable, Sendable {
        /// Writes this piece, framed.
        case write([UInt8])
        /// The exchange fails with `uploadFailed`.
        case failUpload
        /// Nothing: no piece was asked for.
        case ignore
    }

    private(set) var state = State.idle
    private(set) var source = Source.none
    private(set) var chunked = false
    /// Body bytes that went out in this attempt.
    private(set) var sent: Int64 = 0
    /// Body bytes in the piece being written (counted in `sent` once it is out).
    private(set) var pieceBytes = 0

    /// A connection is ready for the attempt with the body from `source`; a file or stream is
    /// opened under `generation`.
    mutating func attemptStarted(_ source: Source, generation: Int) -> ExchangeMachine.BodyStart {
        self.source = source
        guard source == .offLoop else { return .sendHead }
        state = .opening
        return .open(generation: generation)
    }

    /// The file or stream was opened (`succeeded`) or not.
    mutating func opened(succeeded: Bool) -> Opened {
        guard state == .opening else { return .discard }
        guard succeeded else {
            state = .failed
            return .failUpload
        }
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

    /// Everything in the output went out: the body bytes sent so far when a piece of the body
    /// just went (for progress), and what comes next.
    mutating func outputWritten() -> (progress: Int64?, next: Next) {
        var progress: Int64?
        if pieceBytes > 0 {
            sent += Int64(pieceBytes)
            pieceBytes = 0
            progress = sent
        }
        switch state {
        case .lastPiece:
            state = .written
            return (progress, .requestWritten)
        case .sending where source == .offLoop:
            state = .reading
            return (progress, .readOffLoop)
        case .sending:
            return (progress, .readNow)
        case .idle, .opening, .reading, .written, .failed:
            return (progress, .wait)
        }
    }

    /// Whether the socket may be written (no piece is being read off the loop, nothing is being opened).
    var writable: Bool { state != .reading && state != .opening }

    /// A piece was read (`bytes` nil when the read failed); empty at the end of the body.
    mutating func pieceRead(_ bytes: [UInt8]?) -> Piece {
        let expected: State = source == .offLoop ? .reading : .sending
        guard state == expected else { return .ignore }
        guard let bytes else {
            state = .failed
            return .failUpload
        }
        pieceBytes = bytes.count
        state = bytes.isEmpty ? .lastPiece : .sending
        guard chunked else { return .write(bytes) }
        return .write(bytes.isEmpty ? ChunkedEncoder.end() : ChunkedEncoder.chunk(bytes))
    }
}
