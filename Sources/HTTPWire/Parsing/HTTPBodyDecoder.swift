/// An incremental decoder for a message body of any framing: feed received bytes, collect the
/// body bytes it yields, and read `isComplete`; bytes past the end of the body are returned
/// as unused so they can start the next message.
public struct HTTPBodyDecoder: Sendable {
    /// The framing being decoded.
    public let framing: HTTPBodyFraming
    /// The largest body accepted, in bytes.
    public let maxBodyBytes: Int
    /// Body bytes decoded so far.
    public private(set) var receivedCount = 0
    private var chunked: ChunkedDecoder
    private var finished = false

    /// Creates a decoder for `framing`; a declared `Content-Length` over `maxBodyBytes` fails at the first `decode`.
    public init(framing: HTTPBodyFraming, maxBodyBytes: Int = Int.max, maxLineBytes: Int = 16_384) {
        self.framing = framing
        self.maxBodyBytes = maxBodyBytes
        self.chunked = ChunkedDecoder(maxLineBytes: maxLineBytes, maxBodyBytes: maxBodyBytes)
    }

    /// Whether the whole body has been decoded.
    public var isComplete: Bool {
        switch framing {
        case .none: true
        case .contentLength(let length): receivedCount == length
        case .chunked: chunked.isComplete
        case .untilClose: finished
        }
    }

    /// Trailer fields of a chunked body.
    public var trailers: HTTPHeaders { chunked.trailers }

    /// Decodes `input`, appending body bytes to `body`; returns the number of input bytes used.
    @discardableResult
    public mutating func decode(_ input: ArraySlice<UInt8>, into body: inout [UInt8]) throws(HTTPWireError) -> Int {
        switch framing {
        case .none:
            return 0
        case .contentLength(let length):
            guard length <= maxBodyBytes else { throw .bodyTooLarge(limit: maxBodyBytes) }
            let take = min(length - receivedCount, input.count)
            body.append(contentsOf: input.prefix(take))
            receivedCount += take
            return take
        case .chunked:
            let used = try chunked.decode(input, into: &body)
            receivedCount = chunked.decodedCount
            return used
        case .untilClose:
            guard !finished else { return 0 }
            guard receivedCount <= maxBodyBytes - input.count else { throw .bodyTooLarge(limit: maxBodyBytes) }
            body.append(contentsOf: input)
            receivedCount += input.count
            return input.count
        }
    }

    /// Takes `input` as the whole body when it holds exactly a `Content-Length` body and nothing
    /// was decoded yet (the common answer, arriving with its head): its buffer becomes `body`,
    /// uncopied, and `input` is left empty. False, taking nothing, otherwise.
    mutating func takeWholeBody(_ input: inout [UInt8], into body: inout [UInt8]) -> Bool {
        guard case .contentLength(let length) = framing, length > 0, length <= maxBodyBytes, receivedCount == 0,
              input.count == length, body.isEmpty else { return false }
        receivedCount = length
        swap(&input, &body)
        return true
    }

    /// Counts `count` body bytes the parser took as they are (`HTTPResponseParser.feedBody`):
    /// a `Content-Length` or close-delimited body's, at most what is left of it.
    mutating func tookPlainBody(_ count: Int) {
        receivedCount += count
    }

    /// Tells the decoder the peer closed: completes a close-delimited body when the close was
    /// `.complete`, throws `incompleteClose` when it was not (RFC 9112 §9.8), or `truncatedBody`
    /// when the framing expected more. `Content-Length` and chunked bodies end by their framing
    /// alone, however the connection closed.
    public mutating func finishAtEndOfStream(_ end: HTTPStreamEnd = .complete) throws(HTTPWireError) {
        switch framing {
        case .untilClose:
            if finished { return }
            guard end == .complete else { throw .incompleteClose(received: receivedCount) }
            finished = true
        case .contentLength(let length):
            if receivedCount < length { throw .truncatedBody(expected: length, received: receivedCount) }
        case .chunked:
            if !chunked.isComplete { throw .truncatedBody(expected: nil, received: receivedCount) }
        case .none:
            break
        }
    }
}
