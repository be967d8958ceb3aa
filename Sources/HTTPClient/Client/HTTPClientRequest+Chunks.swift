import Locking

extension HTTPClientRequest.Body {
    /// A body read from `sequence` as the socket takes it: the next chunk is asked for only once
    /// the one before is written, so no more than a chunk waits ahead of the socket. With
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
                var iterator = sequence.makeAsyncIterator()
                return ChunkIterator { try await iterator.next() }
            }
        }

        /// The iterator, the first time; nil after (the sequence is read once).
        func takeIterator() -> ChunkIterator? {
            guard taken.withLock({ taken in defer { taken = true }; return !taken }) else { return nil }
            return make()
        }
    }

    /// Reads the next chunk of an `AsyncChunks`, from one task at a time.
    final class ChunkIterator: @unchecked Sendable {
        // @unchecked: `next` is called by one reading task at a time (the exchange asks for a
        // chunk only after the one before came back).
        private let next: () async throws -> [UInt8]?

        init(_ next: @escaping () async throws -> [UInt8]?) {
            self.next = next
        }

        /// The next non-empty chunk, or nil at the end.
        func nextChunk() async throws -> [UInt8]? {
            while let chunk = try await next() {
                if !chunk.isEmpty { return chunk }
            }
            return nil
        }
    }
}
