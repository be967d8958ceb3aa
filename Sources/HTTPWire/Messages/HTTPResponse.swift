/// A complete response: head, body bytes, and trailers of a chunked body.
public struct HTTPResponse: Sendable, Equatable {
    /// The status line and fields.
    public var head: HTTPResponseHead
    /// The decoded body (empty when none).
    public var body: [UInt8]
    /// Trailer fields that followed a chunked body.
    public var trailers: HTTPHeaders

    /// A response as given; the body is sent as is, so `head` must frame it.
    public init(head: HTTPResponseHead, body: [UInt8] = [], trailers: HTTPHeaders = HTTPHeaders()) {
        self.head = head
        self.body = body
        self.trailers = trailers
    }

    /// The message on the wire with `Content-Length` set to the body size (no body and no length
    /// for 1xx, 204 and 304).
    public func serialized() -> [UInt8] {
        let head = framedHead
        return hasBody ? head.serialized() + body : head.serialized()
    }

    /// `head` as `serialized()` writes it: no `Transfer-Encoding`, and `Content-Length` the
    /// body's size, or none for 1xx, 204 and 304. Alone, the answer to a `HEAD` request whose
    /// `GET` would get this response (RFC 9110 §9.3.2: the same fields, no body).
    package var framedHead: HTTPResponseHead {
        var head = head
        head.headers.remove(name: "Transfer-Encoding")
        if hasBody {
            head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        } else {
            head.headers.remove(name: "Content-Length")
        }
        return head
    }

    /// Whether the status allows a body (RFC 9110 §15.2, §15.3.5, §15.4.5: not 1xx, 204, 304).
    private var hasBody: Bool {
        !(100..<200).contains(head.status) && head.status != 204 && head.status != 304
    }
}
