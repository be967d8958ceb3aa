import Foundation
import HTTPWire
import Locking

/// The meeting point of one streamed response: the exchange (on its loop) hands over the head
/// and the body's bytes; the caller of `HTTPClient.stream(_:)` awaits the head, then reads the
/// chunks. At most about `limit` bytes wait unread: past it `write` tells the exchange to leave
/// the socket unread, and reading below half of it lets the exchange read again. The exchange's
/// end (`end(_:)`) ends the body, or fails it. A compressed body is decoded as it arrives
/// (`ResponseBodyDecoder`), as far as the limit: what it would decode past it waits in the
/// decoder (the socket left unread) until the consumer reads. An undecoded chunk the consumer
/// let go of (it asked for the next one) is kept, at most `spareLimit` of them, for the exchange
/// to read later body bytes into (`spareBuffer()`). Everything is behind one lock; nothing is
/// called under it.
final class ResponseBodyStream: ResponseBodySink, Sendable {
    typealias HeadAnswer = Result<HTTPResponseHead, HTTPClientError>
    typealias ChunkAnswer = Result<[UInt8]?, HTTPClientError>

    private struct State {
        var head: HTTPResponseHead?
        var url: URL?
        var headWaiter: CheckedContinuation<HeadAnswer, Never>?
        var chunks = ChunkQueue()
        var buffered: Int { chunks.bytes }
        var reader: CheckedContinuation<ChunkAnswer, Never>?
        var resume: (@Sendable () -> Void)?
        /// How the exchange ended: nil while the body is still coming.
        var end: Result<Void, HTTPClientError>?
        var task: (any HTTPClientTask)?
        var timings: HTTPClientTimings?
        /// Undoes the body's content coding, when the request's policy and the head say so.
        var decoder: ResponseBodyDecoder?
        /// The decoder stopped with the buffer full: it may hold more.
        var decoderFull = false
        /// Body bytes received as sent (before decoding).
        var received = 0
        /// The consumer let go with a small remainder to come: it is read and dropped, and the
        /// connection pooled at its end.
        var discarding = false
        /// The chunk the reader took last, which it may still hold.
        var lent: [UInt8] = []
        /// Chunks the reader let go of (it asked for the next one after taking them), for the
        /// exchange to put later bytes in, at most `spareLimit`.
        var spares: [[UInt8]] = []
        var sparesTaken = 0

        /// The addresses (`Int(bitPattern:)`) of the last two spares the exchange took, and how
        /// many chunks written since came in one of their buffers (a spare read into arrives
        /// with the next write, one decoded into with the write after).
        var spareAddresses: [Int] = []
        var sparesReused = 0

        /// The reader asks for a chunk: it is done with the one it took before, which may carry
        /// later body bytes.
        mutating func reclaimLent() {
            guard lent.capacity > 0 else { return }
            if spares.count < ResponseBodyStream.spareLimit { spares.append(lent) }
            lent = []
        }

        /// The reader takes `chunk`; kept to reuse once it asks again. Only undecoded chunks,
        /// which are the parser's buffers.
        mutating func lend(_ chunk: [UInt8]) {
            if decoder == nil { lent = chunk }
        }

        /// Lets go of the chunks kept for reuse.
        mutating func dropSpares() {
            lent = []
            spares = []
        }

        /// Decodes into the buffer until it holds more than `limit` or the decoder needs input;
        /// at the input's end that ends the body. True when decoding failed (the body's end is
        /// that failure, after what was decoded before it).
        mutating func decode(limit: Int) -> Bool {
            guard var decoder, end == nil else { return false }
            self.decoder = nil
            defer { self.decoder = decoder }
            do throws(HTTPClientError) {
                while buffered <= limit, let chunk = try decoder.next() { chunks.append(chunk) }
            } catch {
                decoderFull = false
                end = .failure(error)
                return true
            }
            decoderFull = buffered > limit
            if !decoderFull, decoder.inputEnded { end = .success(()) }
            return false
        }

        /// What a reader gets now: the next chunk (decoding more, and letting the exchange read
        /// again, once at most half of `limit` waits), else how the body ended; nil while
        /// neither is there. With it, the exchange's resume to call and the task to cancel.
        mutating func answer(limit: Int) -> (ChunkAnswer?, (@Sendable () -> Void)?, (any HTTPClientTask)?) {
            reclaimLent()
            guard let chunk = chunks.pop() else {
                if end != nil { dropSpares() }
                switch end {
                case .success?: return (.success(nil), nil, nil)
                case .failure(let error)?: return (.failure(error), nil, nil)
                case nil: return (nil, nil, nil)
                }
            }
            lend(chunk)
            guard buffered <= limit / 2 else { return (.success(chunk), nil, nil) }
            let failed = decoderFull && decode(limit: limit)
            var resume: (@Sendable () -> Void)?
            if !decoderFull {
                resume = self.resume
                self.resume = nil
            }
            return (.success(chunk), resume, failed ? task : nil)
        }
    }

    /// The unread bytes past which the exchange stops reading the socket.
    let limit: Int
    /// The request's decompression policy (nil: enabled, unlimited).
    let decompression: HTTPClientRequest.Decompression?
    private let state = Lock(State())

    init(limit: Int, decompression: HTTPClientRequest.Decompression? = nil) {
        self.limit = max(1, limit)
        self.decompression = decompression
    }

    // MARK: The exchange's side (on its loop)

    var failure: (any Error)? { nil }

    /// The final response's head arrived from `url`: the caller of `stream(_:)` gets it.
    func headArrived(_ head: HTTPResponseHead, url: URL) {
        let waiter = state.withLock { state -> CheckedContinuation<HeadAnswer, Never>? in
            state.head = head
            state.url = url
            state.decoder = ResponseBodyDecoder(headers: head.headers, policy: decompression)
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: .success(head))
    }

    func write(_ bytes: [UInt8]) -> Bool {
        let (full, served, cancel) = state.withLock { state -> (Bool, Served?, (any HTTPClientTask)?) in
            // A body given up (cancelled) or failed (its decoding) takes no more.
            if case .failure? = state.end { return (false, nil, nil) }
            state.received += bytes.count
            if !state.spareAddresses.isEmpty,
               let index = state.spareAddresses.firstIndex(of: bytes.withUnsafeBufferPointer({ Int(bitPattern: $0.baseAddress) })) {
                state.sparesReused += 1
                state.spareAddresses.remove(at: index)
            }
            if state.discarding { return (false, nil, nil) }
            var failed = false
            if state.decoder != nil {
                state.decoder?.feed(bytes)
                failed = state.decode(limit: limit)
            } else {
                state.chunks.append(bytes)
            }
            return (state.buffered > limit || state.decoderFull, serve(&state), failed ? state.task : nil)
        }
        served?.deliver()
        cancel?.cancel()
        return full
    }

    /// A waiting reader and what it gets.
    private struct Served {
        let reader: CheckedContinuation<ChunkAnswer, Never>
        let answer: ChunkAnswer
        let resume: (@Sendable () -> Void)?
        let cancel: (any HTTPClientTask)?

        func deliver() {
            resume?()
            cancel?.cancel()
            reader.resume(returning: answer)
        }
    }

    /// The waiting reader's answer, when one waits and something is ready for it.
    private func serve(_ state: inout State) -> Served? {
        guard let reader = state.reader else { return nil }
        let (answer, resume, cancel) = state.answer(limit: limit)
        guard let answer else { return nil }
        state.reader = nil
        return Served(reader: reader, answer: answer, resume: resume, cancel: cancel)
    }

    func resumeWhenDrained(_ resume: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.buffered > limit / 2 || state.decoderFull, state.end == nil, !state.discarding else { return true }
            state.resume = resume
            return false
        }
        if now { resume() }
    }

    func finish(_ done: @escaping @Sendable ((any Error)?) -> Void) {
        done(nil)
    }

    var givesBuffersBack: Bool { true }

    /// The most chunks kept for reuse besides the one the reader holds: with the limit's unread
    /// bytes, what a streamed body holds stays a few reads' worth.
    static let spareLimit = 2

    /// A chunk the reader let go of, for the next body bytes; empty when none waits. Still
    /// shared (the reader kept it), it is not written into: the parser's array copies on write.
    func spareBuffer() -> [UInt8] {
        state.withLock { state in
            guard let spare = state.spares.popLast() else { return [] }
            state.sparesTaken += 1
            if state.spareAddresses.count == 2 { state.spareAddresses.removeFirst() }
            state.spareAddresses.append(spare.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) })
            return spare
        }
    }

    /// How many spare chunks the exchange took back, and how many chunks came in one of their
    /// buffers: reused in place, not copied (for tests).
    var spares: (taken: Int, reused: Int) { state.withLock { ($0.sparesTaken, $0.sparesReused) } }

    /// The chunks kept for reuse: the one the reader took last and the spares (for tests).
    var keptForReuse: Int { state.withLock { $0.spares.count + ($0.lent.capacity > 0 ? 1 : 0) } }

    /// The exchange reported: the body ends (after what is buffered, and what the decoder
    /// still holds) or fails; a caller still waiting for the head gets the failure.
    func end(_ result: Result<Void, HTTPClientError>, timings: HTTPClientTimings? = nil) {
        let (headWaiter, served, outcome) = state.withLock { state -> (CheckedContinuation<HeadAnswer, Never>?, Served?, Result<Void, HTTPClientError>) in
            if state.end == nil {
                if case .success = result, state.decoder != nil {
                    state.decoder?.finishInput()
                    _ = state.decode(limit: limit)
                } else {
                    state.end = result
                }
            }
            if let timings { state.timings = timings }
            let waiter = state.headWaiter
            state.headWaiter = nil
            return (waiter, serve(&state), state.end ?? result)
        }
        if let headWaiter {
            if case .failure(let error) = outcome { headWaiter.resume(returning: .failure(error)) } else {
                headWaiter.resume(returning: .failure(.connectionLost(errno: nil)))
            }
        }
        served?.deliver()
    }

    // MARK: The caller's side

    /// Keeps the exchange's handle, to cancel it; cancels it at once when the caller gave up already.
    func started(_ task: any HTTPClientTask) {
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            if case .failure(.cancelled)? = state.end { return true }
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// The head, or the failure that came first.
    func head() async -> HeadAnswer {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> HeadAnswer? in
                    if let head = state.head { return .success(head) }
                    if case .failure(let error)? = state.end { return .failure(error) }
                    state.headWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next chunk, nil at the end of the body; waits while none is buffered.
    func next() async -> ChunkAnswer {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (ready, resume, cancel) = state.withLock { state -> (ChunkAnswer?, (@Sendable () -> Void)?, (any HTTPClientTask)?) in
                    let answer = state.answer(limit: limit)
                    if answer.0 == nil { state.reader = continuation }
                    return answer
                }
                resume?()
                cancel?.cancel()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The most body bytes still to come, by `Content-Length`, that a consumer letting go leaves
    /// to be read and dropped so that the connection is pooled rather than closed.
    static let drainLimit = 16 * 1024

    /// The caller let go of the body before its end (ended its iteration, or dropped the
    /// response): with at most `drainLimit` bytes left by the head's `Content-Length`, the rest
    /// is read and dropped and the connection pooled; else, as `cancel()`, it is closed.
    func release() {
        let drains = state.withLock { state -> (@Sendable () -> Void)?? in
            // Ended, or let go already (by the iterator, then the response): nothing more to do.
            if state.end != nil || state.discarding { return .some(nil) }
            guard let head = state.head, !head.headers.contains("Transfer-Encoding"),
                  let text = head.headers["Content-Length"], let length = Int(text.trimmingCharacters(in: .whitespaces)),
                  length - state.received <= Self.drainLimit else { return nil }
            state.discarding = true
            state.chunks.removeAll()
            state.dropSpares()
            state.decoder = nil
            state.decoderFull = false
            defer { state.resume = nil }
            return .some(state.resume)
        }
        guard let resume = drains else { return cancel() }
        // A paused exchange reads again, now into nothing.
        resume?()
    }

    /// The caller stopped (its task cancelled, or it let go of the body before its end with
    /// more than a little left): the exchange is cancelled (its connection closed) unless it
    /// ended already, and whoever waits gets `.cancelled`.
    func cancel() {
        let task = state.withLock { state -> (any HTTPClientTask)? in
            guard state.end == nil else { return nil }
            state.end = .failure(.cancelled)
            state.chunks.removeAll()
            state.dropSpares()
            return state.task
        }
        task?.cancel()
        end(.failure(.cancelled))
    }

    /// The bytes decoded (or received) and not read yet.
    var bufferedBytes: Int { state.withLock { $0.buffered } }

    /// The request's timings, once the exchange ended.
    var timings: HTTPClientTimings? { state.withLock { $0.timings } }

    /// The URL that answered, once the head arrived.
    var url: URL? { state.withLock { $0.url } }

    /// Whether the body ended (whole or failed).
    var isEnded: Bool { state.withLock { $0.end != nil } }
}
