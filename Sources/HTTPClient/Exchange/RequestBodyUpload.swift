import HTTPWire

/// The request body of one attempt going out, as a value: it decides how the body is had (none,
/// bytes in memory read on the loop, a file or stream opened and read off the loop), how the head
/// frames it and each piece is framed (as is under `Content-Length`, chunked with a terminator
/// when the length is unknown), when it is over, how much of it went out, and what a file or
/// stream that fails to open or read turns into. `ExchangeMachine` carries one per attempt in its
/// sending phase (and tells late results of an attempt given up by their generation, so none
/// reaches this one); `SocketExchange` keeps the reader and the bytes.
///
/// Every event switches over the state and names each one: the pairs the driver produces (through
/// the machine) are handled; every other is `impossible(_:)`, a `preconditionFailure` naming it,
/// and is listed in `impossiblePairs`. The driver reads one piece at a time, only after the output
/// is all written (or queued, for a piece with another after it), and writes only while `writable`.
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

    enum State: String, CaseIterable, Equatable, Sendable {
        /// No attempt yet.
        case idle
        /// The file or stream is being opened off the loop; the head waits for its length.
        case opening
        /// The body is ready (none, bytes in memory, a file or stream opened): the head is made next.
        case headDue
        /// The head or a piece is going out as the socket takes it.
        case sending
        /// A piece is being read (off the loop for a file or stream); the socket is not written meanwhile.
        case reading
        /// The last piece (or the head alone) is in the output: once it is out, so is the request.
        case lastPiece
        /// The whole request went out (the exchange then leaves its sending phase).
        case written
        /// The file or stream failed: the exchange reports `uploadFailed` (and ends).
        case failed
    }

    /// What an open file or stream leads to.
    enum Opened: Equatable, Sendable {
        /// Makes the head (framed by `headPrepared`) and writes it.
        case sendHead
        /// The exchange fails with `uploadFailed`.
        case failUpload
    }

    /// What follows an output all written.
    enum Next: Equatable, Sendable {
        /// Reads the next piece now (bytes in memory); it goes to `pieceRead`.
        case readNow
        /// Reads the next piece off the loop; it goes to `pieceRead`.
        case readOffLoop
        /// The whole request is out.
        case requestWritten
    }

    /// What a piece read leads to.
    enum Piece: Equatable, Sendable {
        /// Writes this piece, framed.
        case write([UInt8])
        /// The exchange fails with `uploadFailed`.
        case failUpload
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
        switch state {
        case .idle:
            self.source = source
            guard source == .offLoop else {
                state = .headDue
                return .sendHead
            }
            state = .opening
            return .open(generation: generation)
        case .opening, .headDue, .sending, .reading, .lastPiece, .written, .failed:
            // Each attempt starts a new upload (`ExchangeMachine.startAttempt`).
            impossible(.attemptStarted)
        }
    }

    /// The file or stream was opened (`succeeded`) or not.
    mutating func opened(succeeded: Bool) -> Opened {
        switch state {
        case .opening:
            guard succeeded else {
                state = .failed
                return .failUpload
            }
            state = .headDue
            return .sendHead
        case .idle, .headDue, .sending, .reading, .lastPiece, .written, .failed:
            // One open per attempt, asked for by `attemptStarted` only; an attempt given up since
            // has another generation, which the machine tells apart.
            impossible(.opened)
        }
    }

    /// The head is being made: how it frames the body (`length` nil when unknown).
    mutating func headPrepared(hasBody: Bool, length: Int64?) -> SocketRequestEncoding.BodyFraming {
        switch state {
        case .headDue:
            // `attemptStarted`'s `.sendHead`, or the `.sendHead` of a file or stream opened.
            chunked = hasBody && length == nil
            state = hasBody ? .sending : .lastPiece
            guard hasBody else { return .length(0) }
            return length.map { .length($0) } ?? .chunked
        case .idle, .opening, .sending, .reading, .lastPiece, .written, .failed:
            // One head per attempt (a retry is a new attempt), made only as the machine says.
            impossible(.headPrepared)
        }
    }

    /// Everything in the output went out (or, while `piecesFollow`, was handed to the socket's
    /// bounded queue): the body bytes sent so far when a piece of the body just went (for
    /// progress), and what comes next.
    mutating func outputWritten() -> (progress: Int64?, next: Next) {
        switch state {
        case .sending:
            // The head or a piece went out: the next piece is read.
            let progress = countPiece()
            state = .reading
            return (progress, source == .offLoop ? .readOffLoop : .readNow)
        case .lastPiece:
            let progress = countPiece()
            state = .written
            return (progress, .requestWritten)
        case .idle, .opening, .headDue, .reading, .written, .failed:
            // The driver asks only while `writable`, after the head is made (which is written at
            // once), and the exchange leaves its sending phase once the request is out or failed.
            impossible(.outputWritten)
        }
    }

    /// Counts the piece that just went out into `sent`: the new total when it carried body bytes.
    private mutating func countPiece() -> Int64? {
        guard pieceBytes > 0 else { return nil }
        sent += Int64(pieceBytes)
        pieceBytes = 0
        return sent
    }

    /// Whether the socket may be written: the head or a piece is going out (not while a body is
    /// opened, a head is due or a piece is read; nor once the request is out or failed).
    var writable: Bool {
        switch state {
        case .sending, .lastPiece: true
        case .idle, .opening, .headDue, .reading, .written, .failed: false
        }
    }

    /// Whether the head or a piece is going out with another piece after it (not the last): the
    /// driver may take the next before this one is written (`outputWritten` then says it was
    /// handed to the socket's queue).
    var piecesFollow: Bool {
        switch state {
        case .sending: true
        case .idle, .opening, .headDue, .reading, .lastPiece, .written, .failed: false
        }
    }

    /// A piece was read (`bytes` nil when the read failed); empty at the end of the body.
    mutating func pieceRead(_ bytes: [UInt8]?) -> Piece {
        switch state {
        case .reading:
            guard let bytes else {
                state = .failed
                return .failUpload
            }
            pieceBytes = bytes.count
            state = bytes.isEmpty ? .lastPiece : .sending
            guard chunked else { return .write(bytes) }
            return .write(bytes.isEmpty ? ChunkedEncoder.end() : ChunkedEncoder.chunk(bytes))
        case .idle, .opening, .headDue, .sending, .lastPiece, .written, .failed:
            // A piece is read only as `outputWritten` says, one at a time; a read for an attempt
            // given up has another generation, which the machine tells apart.
            impossible(.pieceRead)
        }
    }
}

extension RequestBodyUpload {
    /// The upload's events, by the name of the method that takes each.
    enum Event: String, CaseIterable, Sendable {
        case attemptStarted, opened, headPrepared, outputWritten, pieceRead
    }

    /// A state and an event.
    struct Pair: Hashable, Sendable, CustomStringConvertible {
        let event: Event
        let state: State

        var description: String { "\(event) in \(state)" }
    }

    /// Every (state, event) pair the driver cannot produce through `ExchangeMachine`: each stops
    /// the process in `impossible(_:)`. The reasons are at each `impossible` call. Every other
    /// pair is handled (a test drives each one).
    static let impossiblePairs: Set<Pair> = {
        let handled: [Event: [State]] = [
            .attemptStarted: [.idle],
            .opened: [.opening],
            .headPrepared: [.headDue],
            .outputWritten: [.sending, .lastPiece],
            .pieceRead: [.reading],
        ]
        return Set(Event.allCases.flatMap { event in
            State.allCases.filter { !(handled[event] ?? []).contains($0) }.map { Pair(event: event, state: $0) }
        })
    }()

    /// Stops at `event` in the current state, a pair the driver cannot produce (listed in `impossiblePairs`).
    func impossible(_ event: Event) -> Never {
        preconditionFailure("RequestBodyUpload: \(Pair(event: event, state: state)) cannot happen")
    }
}
