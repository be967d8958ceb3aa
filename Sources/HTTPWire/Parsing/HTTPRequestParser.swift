/// An incremental parser for a stream of requests, as a server reads them: feed bytes, then take
/// complete requests (head and body) one by one; pipelined requests stay buffered.
///
/// The parsing is strict where leniency lets requests be smuggled: every head line must end in
/// CRLF (a bare LF is `malformedStartLine` / `malformedHeader`), and a `CONNECT` request has no
/// body whatever its fields say (the bytes after its head belong to the tunnel).
///
/// `pendingHead` exposes a head whose body has not fully arrived, so a server can count the
/// request or answer `Expect: 100-continue` before the body comes.
public struct HTTPRequestParser: Sendable {
    /// The largest head accepted (`HTTPWireError.headersTooLarge` beyond).
    public let maxHeaderBytes: Int
    /// The largest body accepted (`HTTPWireError.bodyTooLarge` beyond, before reading it when declared).
    public let maxBodyBytes: Int
    /// A parsed head whose body is still arriving.
    public private(set) var pendingHead: HTTPRequestHead?
    /// Heads parsed so far on this stream.
    public private(set) var headCount = 0
    private var headParser: HTTPHeadParser
    private var decoder: HTTPBodyDecoder?
    private var body: [UInt8] = []

    /// Creates a parser with the given limits.
    public init(maxHeaderBytes: Int = 16_384, maxBodyBytes: Int = 1_048_576) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.headParser = HTTPHeadParser(maxHeaderBytes: maxHeaderBytes, requiresCRLF: true)
    }

    /// Appends received bytes.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        headParser.feed(bytes)
    }

    /// Whether no bytes of a next request are buffered.
    public var isIdle: Bool { pendingHead == nil && headParser.isEmpty }

    /// The next complete request, or nil when more bytes are needed.
    public mutating func nextRequest() throws(HTTPWireError) -> HTTPRequest? {
        if pendingHead == nil {
            guard let head = try headParser.nextRequestHead() else { return nil }
            headCount += 1
            pendingHead = head
            decoder = HTTPBodyDecoder(framing: try head.bodyFraming(), maxBodyBytes: maxBodyBytes)
            body = []
        }
        guard let head = pendingHead, var decoder else { return nil }
        let pending = headParser.takeBuffered()
        let used = try decoder.decode(pending[...], into: &body)
        headParser.feed(pending[used...])
        self.decoder = decoder
        guard decoder.isComplete else { return nil }
        pendingHead = nil
        self.decoder = nil
        defer { body = [] }
        return HTTPRequest(head: head, body: body)
    }

    /// Whether the request line buffered is longer than `maxHeaderBytes` (leading empty lines
    /// aside): after `HTTPWireError.headersTooLarge`, the target is too long (414, RFC 9112
    /// section 3) rather than the fields (431). Read on that error only: it scans the buffer.
    public var requestLineTooLong: Bool {
        let buffered = headParser.buffered
        var start = buffered.startIndex
        while buffered.endIndex - start >= 2, buffered[start] == ASCII.cr, buffered[start + 1] == ASCII.lf {
            start += 2
        }
        return !buffered[start...].prefix(maxHeaderBytes).contains(ASCII.lf)
    }

    /// Tells the parser the client closed: throws when a request was cut short.
    public mutating func finishAtEndOfStream() throws(HTTPWireError) {
        if var decoder {
            try decoder.finishAtEndOfStream()
        } else if !headParser.isEmpty {
            throw .truncatedHead(received: headParser.buffered.count)
        }
    }
}
