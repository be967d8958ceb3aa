/// A complete request: head and body bytes.
public struct HTTPRequest: Sendable, Equatable {
    /// The request line and fields.
    public var head: HTTPRequestHead
    /// The decoded body (empty when none).
    public var body: [UInt8]

    /// A request as given; the body is sent as is, so `head` must frame it (`Content-Length`
    /// or chunked).
    public init(head: HTTPRequestHead, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }

    /// The message on the wire with a `Content-Length` body; sets `Content-Length` when a body
    /// is present or the method usually carries one, and drops any `Transfer-Encoding`.
    public func serialized() -> [UInt8] {
        var head = head
        head.headers.remove(name: "Transfer-Encoding")
        let method = head.method.uppercased()
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        } else {
            head.headers.remove(name: "Content-Length")
        }
        return head.serialized() + body
    }
}
