import Locking

extension HTTPClientRequest.Body {
    /// A body read from `sequence` as the socket takes it: chunks are read ahead of the socket
    /// while it writes, up to 1 MiB (and a chunk), and the sequence is not asked for more until
    /// the socket took half of that, so a bounded amount waits ahead of the socket (up to 1 MiB
    /// more is queued for the socket, to be written together). With
    /// `length` it goes out under `Content-Length` (and fails with `uploadFailed` when the
    /// sequence brings more or fewer bytes), else chunked. A sequence is read once: a retry on a
    /// stale connection is not made, and a 307 or 308 redirect (which must send the body again)
    /// fails with `HTTPClientError.bodyNotReplayable`. Cancelling the request cancels the task
    /// reading it.
    ///
    /// ```swift
    /// let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
    /// request.body = .chunks(stream)
    /// ```
    public static func chunks<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks, length: Int64? = nil) -> Self
    where Chunks.Element == [UInt8] {
        .asyncSequence(HTTPClientRequest.AsyncChunks(sequence), length: length)
    }

    /// Whether a second attempt (a retry, a 307 or 308 redirect) can send the body again.
    public var isReplayable: Bool {
        if case .asyncSequence = self { return false }
        return true
    }
}

extension HTTPClientRequest {
    /// The chunks of a `Body.chunks` body: an `AsyncSequence` of byte arrays, iterated once
    /// (copies of a request share it).
    public final class AsyncChunks: Sendable {
        private let make: @Sendable () -> ChunkIterator
        private let taken = Lock(false)

        init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks) where Chunks.Element == [UInt8] {
            make = {
                ChunkIterator(ChunkSource(sequence))
            }
        }

        /// The iterator, the first time; nil after (the sequence is read once).
        func takeIterator() -> ChunkIterator? {
            guard taken.withLock({ taken in defer { taken = true }; return !taken }) else { return nil }
            return make()
        }
    }

    /// The sequence's own iterator, advanced by the one task that reads ahead.
    final class ChunkSource: @unchecked Sendable {
        // @unchecked: `next` is called only by the read-ahead task, one call after the other.
        let next: () async throws -> [UInt8]?

        init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks) where Chunks.Element == [UInt8] {
            var iterator = sequence.makeAsyncIterator()
            next = { try await iterator.next() }
        }
    }

    /// Reads the chunks of an `AsyncChunks` ahead of the socket: once asked for the first, a
    /// task of its own pulls the sequence while the socket writes, until `readAhead` bytes
    /// wait, and pulls again once the socket took them down to half of it. The writer mostly
    /// finds the next chunk ready (`readyChunk()`, no task woken); a socket that takes nothing
    /// leaves the sequence unasked with at most `readAhead` and a chunk waiting.
    final class ChunkIterator: Sendable {
        /// The bytes read ahead past which the sequence is not asked for more.
        static let readAhead = 1024 * 1024

        /// Takes the next chunk (nil at the end) or the sequence's failure.
        typealias Waiter = @Sendable (Result<[UInt8]?, any Error>) -> Void

        private struct State {
            var ready = ChunkQueue()
            /// How the sequence ended (after the chunks in `ready`): nil while it goes on.
            var end: Result<Void, any Error>?
            /// The writer waiting for a chunk.
            var reader: Waiter?
            /// The read-ahead task, waiting for the writer to take chunks.
            var paused: CheckedContinuation<Void, Never>?
            var pump: Task<Void, Never>?
            var cancelled = false

            /// The next chunk or the end, when there; with the paused read-ahead to go on.
            mutating func take() -> (Result<[UInt8]?, any Error>?, CheckedContinuation<Void, Never>?) {
                guard let chunk = ready.pop() else {
                    switch end {
                    case .success?: return (.success(nil), nil)
                    case .failure(let error)?: return (.failure(error), nil)
                    case nil: return (nil, nil)
                    }
                }
                guard ready.bytes <= ChunkIterator.readAhead / 2, let paused else { return (.success(chunk), nil) }
                self.paused = nil
                return (.success(chunk), paused)
            }
        }

        /// What the iterator and its read-ahead task share (the task holds it, not the iterator,
        /// so that letting go of the iterator cancels the task).
        private final class Shared: Sendable {
            let source: ChunkSource
            let state = Lock(State())

            init(_ source: ChunkSource) {
                self.source = source
            }
        }

        private let shared: Shared

        init(_ source: ChunkSource) {
            shared = Shared(source)
        }

        deinit {
            cancel()
        }

        /// The next non-empty chunk (nil at the end) when it was read ahead already, or the
        /// sequence's failure; nil when none is there yet (starting the read-ahead the first time).
        func readyChunk() -> Result<[UInt8]?, any Error>? {
            let (ready, paused) = shared.state.withLock { state -> (Result<[UInt8]?, any Error>?, CheckedContinuation<Void, Never>?) in
                let (ready, paused) = state.take()
                if ready == nil, state.pump == nil, !state.cancelled { startReadingAhead(&state) }
                return (ready, paused)
            }
            paused?.resume()
            return ready
        }

        /// The next non-empty chunk, or nil at the end; waits while none is read ahead.
        func nextChunk() async throws -> [UInt8]? {
            if let ready = readyChunk() { return try ready.get() }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    whenReady { continuation.resume(with: $0) }
                }
            } onCancel: {
                cancel()
            }
        }

        /// Hands the next non-empty chunk (nil at the end), or the sequence's failure, to `ready`:
        /// at once when one is there, else from the read-ahead task as it reads it (no task of
        /// the caller's waits for it). After `cancel()`, `ready` gets `CancellationError`.
        func whenReady(_ ready: @escaping Waiter) {
            let (answer, paused) = shared.state.withLock { state -> (Result<[UInt8]?, any Error>?, CheckedContinuation<Void, Never>?) in
                if state.cancelled { return (.failure(CancellationError()), nil) }
                let (answer, paused) = state.take()
                if answer == nil {
                    state.reader = ready
                    if state.pump == nil { startReadingAhead(&state) }
                }
                return (answer, paused)
            }
            paused?.resume()
            if let answer { ready(answer) }
        }

        /// The bytes read ahead and not yet taken (for tests).
        var queuedBytes: Int {
            shared.state.withLock { $0.ready.bytes }
        }

        /// Stops reading ahead (the request is over): the read-ahead task is cancelled, a waiting
        /// writer gets `CancellationError`.
        func cancel() {
            let (pump, reader, paused) = shared.state.withLock { state in
                state.cancelled = true
                state.ready.removeAll()
                defer { state.reader = nil; state.paused = nil }
                return (state.pump, state.reader, state.paused)
            }
            pump?.cancel()
            paused?.resume()
            reader?(.failure(CancellationError()))
        }

        /// Starts the read-ahead task (under the lock, once).
        private func startReadingAhead(_ state: inout State) {
            state.pump = Task { [shared] in
                await Self.pump(shared)
            }
        }

        /// The read-ahead task: pulls chunks into the shared state, handing each to a waiting
        /// writer, and waits while `readAhead` bytes are unread, until the sequence ends or fails.
        private static func pump(_ shared: Shared) async {
            let source = shared.source
            while true {
                let pulled: Result<[UInt8]?, any Error>
                do { pulled = .success(try await source.next()) } catch { pulled = .failure(error) }
                if case .success(let chunk?) = pulled, chunk.isEmpty { continue }
                let (reader, answer, full) = shared.state.withLock { state -> (Waiter?, Result<[UInt8]?, any Error>?, Bool) in
                    guard !state.cancelled else { return (nil, nil, false) }
                    switch pulled {
                    case .success(let chunk?):
                        if let reader = state.reader {
                            state.reader = nil
                            return (reader, .success(chunk), false)
                        }
                        state.ready.append(chunk)
                    case .success(nil):
                        state.end = .success(())
                    case .failure(let error):
                        state.end = .failure(error)
                    }
                    guard let reader = state.reader else { return (nil, nil, state.ready.bytes >= ChunkIterator.readAhead) }
                    state.reader = nil
                    return (reader, state.take().0, false)
                }
                if let reader, let answer { reader(answer) }
                let (cancelled, ended) = shared.state.withLock { state in (state.cancelled, state.end != nil) }
                if ended { return }
                if cancelled {
                    // Cancelled between two pulls: ask once more, in the cancelled task, so that the
                    // sequence sees the cancellation (an `AsyncStream` ends and calls its
                    // `onTermination`) as it would in a `for await` loop's task.
                    if case .success(_?) = pulled { _ = try? await source.next() }
                    return
                }
                guard full else { continue }
                await withCheckedContinuation { continuation in
                    let goOn = shared.state.withLock { state -> Bool in
                        guard !state.cancelled, state.ready.bytes > ChunkIterator.readAhead / 2 else { return true }
                        state.paused = continuation
                        return false
                    }
                    if goOn { continuation.resume() }
                }
            }
        }
    }
}
