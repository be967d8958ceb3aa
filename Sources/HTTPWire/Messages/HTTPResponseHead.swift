/// The status line and header fields of an HTTP/1.x response.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The version of the status line; a 1.0 response closes the connection unless it says keep-alive.
    public var version: HTTPVersion
    /// The three-digit status code.
    public var status: Int
    /// The reason phrase (may be empty).
    public var reason: String
    /// The header fields in wire order.
    public var headers: HTTPHeaders

    /// Creates a response head; an empty `reason` is replaced by the standard phrase for `status`.
    public init(status: Int, reason: String = "", version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.version = version
        self.status = status
        self.reason = reason.isEmpty ? HTTPResponseHead.standardReason(for: status) : reason
        self.headers = headers
    }

    /// Whether the server keeps the connection open after this response.
    public var keepAlive: Bool {
        if headers.containsToken("close", in: "Connection") { return false }
        if version == .http1_0 { return headers.containsToken("keep-alive", in: "Connection") }
        return true
    }

    /// How the body of this response is delimited, given the method of the request it answers
    /// (`HEAD` and 1xx/204/304 have no body; no length means the body runs until close).
    public func bodyFraming(requestMethod: String) throws(HTTPWireError) -> HTTPBodyFraming {
        if requestMethod.caseInsensitiveEquals("HEAD") || (100..<200).contains(status) || status == 204 || status == 304 {
            return .none
        }
        if requestMethod.caseInsensitiveEquals("CONNECT") && (200..<300).contains(status) {
            return .none
        }
        if let framing = try HTTPBodyFraming.fromTransferEncoding(headers) {
            return framing
        }
        if let length = try HTTPBodyFraming.contentLength(headers) {
            return length == 0 ? .none : .contentLength(length)
        }
        return .untilClose
    }

    /// The head on the wire: status line, fields, and the empty line.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + headers.count * 32)
        bytes.append(contentsOf: "\(version) \(status) \(reason)\r\n".utf8)
        headers.serialize(into: &bytes)
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }

    /// The RFC 9110 reason phrase for `status`, or `"Unknown"`.
    public static func standardReason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Unknown"
        }
    }
}
