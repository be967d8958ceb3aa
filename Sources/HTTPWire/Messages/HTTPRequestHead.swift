/// The request line and header fields of an HTTP/1.x request.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method token, such as `GET`.
    public var method: String
    /// The request target as sent, such as `/echo?x=1`.
    public var target: String
    /// The version of the request line; 1.0 means no keep-alive unless asked for.
    public var version: HTTPVersion
    /// The header fields in wire order.
    public var headers: HTTPHeaders

    /// A head as given, unchecked: `method`, `target` and the fields go on the wire as they are.
    public init(method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// The target's path, without the query.
    public var path: String {
        if let index = target.firstIndex(of: "?") { String(target[..<index]) } else { target }
    }

    /// The target's raw query after `?`, or nil when there is none.
    public var query: String? {
        if let index = target.firstIndex(of: "?") { String(target[target.index(after: index)...]) } else { nil }
    }

    /// Whether the connection stays open after this exchange (HTTP/1.1 default, `Connection` honoured).
    public var keepAlive: Bool {
        if headers.containsToken("close", in: "Connection") { return false }
        if version == .http1_0 { return headers.containsToken("keep-alive", in: "Connection") }
        return true
    }

    /// How the request body is delimited (RFC 9112 section 6.3); `CONNECT` never has one
    /// (RFC 9110 section 9.3.6: what follows its head is tunnel data).
    public func bodyFraming() throws(HTTPWireError) -> HTTPBodyFraming {
        if method == "CONNECT" { return .none }
        if let framing = try HTTPBodyFraming.fromTransferEncoding(headers) {
            return framing
        }
        if let length = try HTTPBodyFraming.contentLength(headers) {
            return length == 0 ? .none : .contentLength(length)
        }
        return .none
    }

    /// The head on the wire: request line, fields, and the empty line.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        // The exact size, so the head takes one buffer (a request's allocations).
        let fieldBytes = headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        bytes.reserveCapacity(method.utf8.count + target.utf8.count + 12 + fieldBytes + 2)
        bytes.append(contentsOf: method.utf8)
        bytes.append(ASCII.space)
        bytes.append(contentsOf: target.utf8)
        bytes.append(ASCII.space)
        version.serialize(into: &bytes)
        bytes.append(contentsOf: "\r\n".utf8)
        headers.serialize(into: &bytes)
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }
}
