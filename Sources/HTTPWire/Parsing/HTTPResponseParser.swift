/// An incremental parser for one complete response, as a client reads it: head, then body of
/// whatever framing, skipping interim 1xx responses. Feed bytes until it returns a response;
/// call `finishAtEndOfStream()` when the peer closes.
public struct HTTPResponseParser: Sendable {
    /// The method of the request being answered (`HEAD` responses have no body).
    public let requestMethod: String
    /// The largest body accepted, in bytes.
    public let maxBodyBytes: Int
    /// The head, once parsed.
    public private(set) var head: HTTPResponseHead?
    /// Body bytes received so far.
    public private(set) var body: [UInt8] = []
    private var headParser: HTTPHeadParser
    private var decoder: HTTPBodyDecoder?
    private var leftover: [UInt8] = []
    private var receivedBytes = 0

    /// Creates a parser for the response to a `requestMethod` request.
    public init(requestMethod: String, maxHeaderBytes: Int = 16_384, maxBodyBytes: Int = Int.max) {
        self.requestMethod = requestMethod
        self.maxBodyBytes = maxBodyBytes
        self.headParser = HTTPHeadParser(maxHeaderBytes: maxHeaderBytes)
    }

    /// Bytes received after the end of the response (the start of a pipelined one, if any).
    public var unusedBytes: [UInt8] { leftover }

    /// Whether the response's framing leaves the connection fit for another request (its
    /// `Connection` field aside): false for a chunked body announced with a `Content-Length` too
    /// (RFC 9112 §6.3 rule 3: maybe a smuggling attempt) or in an HTTP/1.0 response (§6.1: its
    /// framing counts as faulty), after which the connection is closed. True before the head.
    public var framingAllowsReuse: Bool {
        guard let head, case .chunked? = decoder?.framing else { return true }
        return head.version != .http1_0 && !head.headers.contains("Content-Length")
    }

    /// Body bytes decoded so far, including those already taken with `takeBody()`.
    public var bodyBytesReceived: Int { decoder?.receivedCount ?? 0 }

    /// Removes and returns the body bytes decoded so far, so that a caller writing the body
    /// elsewhere (a file) never holds it whole; the completed response then has only the rest.
    public mutating func takeBody() -> [UInt8] {
        defer { body.removeAll(keepingCapacity: true) }
        return body
    }

    /// Removes and returns the body bytes decoded so far, as `takeBody()`, and decodes what
    /// follows into `spare`'s buffer (emptied, its capacity kept) rather than a new one: a caller
    /// streaming the body gives back a buffer its consumer let go of, so that a few buffers carry
    /// the whole body. A `spare` still shared elsewhere is left alone (an array's copy on write).
    public mutating func takeBody(reusing spare: consuming [UInt8]) -> [UInt8] {
        spare.removeAll(keepingCapacity: true)
        swap(&spare, &body)
        return spare
    }

    /// How many of the bytes to come are body bytes taken as they are, which a caller may read
    /// straight into a buffer of its own for `feedBody(_:)`: what is left of a `Content-Length`
    /// body, or of the size limit for a close-delimited one. 0 before the body's start, for a
    /// chunked body, and once the body is complete.
    public var plainBodyBytesExpected: Int {
        guard let decoder, !decoder.isComplete else { return 0 }
        switch decoder.framing {
        case .contentLength(let length):
            return length <= maxBodyBytes ? length - decoder.receivedCount : 0
        case .untilClose:
            return maxBodyBytes - decoder.receivedCount
        case .chunked, .none:
            return 0
        }
    }

    /// Feeds `bytes`, all body bytes (at most `plainBodyBytesExpected`); returns the response
    /// once it is complete. With no body bytes waiting to be taken, the array itself becomes the
    /// body, uncopied; otherwise, as `feed`, its bytes are appended.
    public mutating func feedBody(_ bytes: consuming [UInt8]) throws(HTTPWireError) -> HTTPResponse? {
        guard body.isEmpty, bytes.count <= plainBodyBytesExpected, var decoder else { return try feed(bytes[...]) }
        receivedBytes += bytes.count
        decoder.tookPlainBody(bytes.count)
        self.decoder = decoder
        swap(&bytes, &body)
        return completedResponse()
    }

    /// Feeds received bytes; returns the response once it is complete.
    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(HTTPWireError) -> HTTPResponse? {
        try feed(ArraySlice(bytes))
    }

    /// Feeds received bytes; returns the response once it is complete. The same as the generic
    /// `feed`, for the bytes a transport reads: called from another module, a generic function
    /// runs unspecialized and copies a slice element by element through its protocol.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) throws(HTTPWireError) -> HTTPResponse? {
        receivedBytes += bytes.count
        if var decoder {
            let used = try decoder.decode(bytes, into: &body)
            self.decoder = decoder
            if decoder.isComplete {
                leftover.append(contentsOf: bytes.dropFirst(used))
            }
            return completedResponse()
        }
        headParser.feed(bytes)
        while let parsed = try headParser.nextResponseHead() {
            if (100..<200).contains(parsed.status) && parsed.status != 101 { continue }
            head = parsed
            var decoder = HTTPBodyDecoder(framing: try parsed.bodyFraming(requestMethod: requestMethod), maxBodyBytes: maxBodyBytes)
            var rest = headParser.takeBuffered()
            if decoder.takeWholeBody(&rest, into: &body) {
                self.decoder = decoder
                return completedResponse()
            }
            let used = try decoder.decode(rest[...], into: &body)
            self.decoder = decoder
            if decoder.isComplete { leftover = Array(rest[used...]) }
            return completedResponse()
        }
        return nil
    }

    /// Tells the parser the peer closed, `end` saying whether the close was complete (TLS's
    /// `close_notify`; plain TCP's end of stream always is); returns the response when it is
    /// complete (a close-delimited body after a complete close), throws when the head or body was
    /// cut short (`incompleteClose` for a close-delimited body after an incomplete close).
    public mutating func finishAtEndOfStream(_ end: HTTPStreamEnd = .complete) throws(HTTPWireError) -> HTTPResponse {
        guard var decoder, let head else { throw .truncatedHead(received: receivedBytes) }
        try decoder.finishAtEndOfStream(end)
        self.decoder = decoder
        return HTTPResponse(head: head, body: body, trailers: decoder.trailers)
    }

    private func completedResponse() -> HTTPResponse? {
        guard let head, let decoder, decoder.isComplete else { return nil }
        return HTTPResponse(head: head, body: body, trailers: decoder.trailers)
    }
}
