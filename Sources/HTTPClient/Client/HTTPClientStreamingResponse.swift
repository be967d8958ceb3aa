import Foundation
import HTTPWire

/// A response from `HTTPClient.stream(_:)`, answered at its head: the body arrives through
/// `body` as the consumer reads it. At most about `HTTPClient.streamingBufferLimit` bytes wait
/// unread; past that the connection is left unread (the server's writes stall) until the
/// consumer catches up.
///
/// ```swift
/// let response = try await HTTPClient.shared.stream(HTTPClientRequest(url: url))
/// for try await chunk in response.body { consume(chunk) }
/// ```
///
/// The body is read once, by one consumer. Ending the iteration before the end (a `break`, a
/// thrown error), or letting go of the response unread, closes the connection, unless at most
/// 16 KiB of it is left by its `Content-Length`: that rest is read and dropped, and the
/// connection pooled. Cancelling the consuming task cancels the request (`next()` throws
/// `.cancelled`) and closes the connection. A failure after the head
/// (the connection lost, the deadline) is thrown by `next()`. A `gzip` or `deflate` body is
/// decoded as it arrives (unless the request's `decompression` is `.disabled`); `head` keeps the
/// fields as received, `Content-Encoding` and `Content-Length` included.
public struct HTTPClientStreamingResponse: Sendable {
    /// The status line and header fields as received.
    public let head: HTTPResponseHead
    /// The URL that answered (the last one after redirects).
    public let url: URL
    /// The body's chunks as they arrive.
    public let body: Body

    /// When each step of the request happened, once the body ended (nil before).
    public var timings: HTTPClientTimings? { body.lifetime.stream.timings }

    /// The status code.
    public var status: Int { head.status }

    init(head: HTTPResponseHead, url: URL, stream: ResponseBodyStream) {
        self.head = head
        self.url = url
        self.body = Body(lifetime: Lifetime(stream))
    }

    /// The whole body, read into memory; throws `.responseTooLarge(limit: maximum)` (and closes
    /// the connection) once it passes `maximum` bytes.
    public func collect(upTo maximum: Int) async throws(HTTPClientError) -> [UInt8] {
        var collected: [UInt8] = []
        var iterator = body.makeAsyncIterator()
        while let chunk = try await iterator.next() {
            guard chunk.count <= maximum - collected.count else {
                iterator.stop()
                throw .responseTooLarge(limit: maximum)
            }
            collected += chunk
        }
        return collected
    }

    /// The body's chunks as an `AsyncSequence` of byte arrays, failing with `HTTPClientError`.
    public struct Body: AsyncSequence, Sendable {
        public typealias Element = [UInt8]
        public typealias Failure = HTTPClientError

        let lifetime: Lifetime

        public func makeAsyncIterator() -> Iterator {
            Iterator(lifetime: Lifetime(lifetime.stream, parent: lifetime))
        }

        /// Reads the body's chunks in order; nil after the last.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = [UInt8]
            public typealias Failure = HTTPClientError

            let lifetime: Lifetime

            /// The next chunk, nil at the end of the body; throws what ended the exchange.
            public mutating func next() async throws(HTTPClientError) -> [UInt8]? {
                try await lifetime.stream.next().get()
            }

            /// The next chunk (the isolation-aware form the `for try await` loop calls).
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(HTTPClientError) -> [UInt8]? {
                try await lifetime.stream.next().get()
            }

            /// Stops reading: the exchange is cancelled unless it ended.
            func stop() {
                lifetime.stream.cancel()
            }
        }
    }

    /// Cancels the exchange when the last holder of the response, or an iterator, goes away
    /// before the body ended.
    final class Lifetime: Sendable {
        let stream: ResponseBodyStream
        /// The response's lifetime, kept alive by its iterators.
        private let parent: Lifetime?

        init(_ stream: ResponseBodyStream, parent: Lifetime? = nil) {
            self.stream = stream
            self.parent = parent
        }

        deinit {
            if !stream.isEnded { stream.release() }
        }
    }
}
