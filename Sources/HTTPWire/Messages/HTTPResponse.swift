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
        var head = head
        head.headers.remove(name: "Transfer-Encoding")
        if (100..<200).contains(head.status) || head.status == 204 || head.status == 304 {
            head.headers.remove(name: "Content-Length")
            return head.serialized()
        }
        head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        return head.serialized() + body
    }
}
