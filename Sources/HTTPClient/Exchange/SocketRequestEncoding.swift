import Foundation
import HTTPWire

/// Turns an `HTTPClientRequest` into an HTTP/1.1 head: request line, `Host`, the request's own
/// fields, and the body's framing.
enum SocketRequestEncoding {
    /// How the body of a request goes on the wire.
    enum BodyFraming: Equatable, Sendable {
        /// This many bytes after the head (`Content-Length`; 0 sends the field only for methods that carry a body).
        case length(Int64)
        /// `Transfer-Encoding: chunked`, for a stream of unknown length.
        case chunked
    }

    /// The head to send for `request` to `target` with `framing`, adding `Accept-Encoding:
    /// gzip, deflate` when the caller set none and `acceptsCompression` (the client decodes
    /// them), and whether it asks to close the connection after the exchange (read from the
    /// fields as sent).
    ///
    /// Written straight into one buffer of the head's exact size (`reusing`'s storage, emptied,
    /// when it has the room and no other holder): request line, `Host` (unless given), a
    /// proxy's credentials, the caller's fields in order (repeats included; the framing fields
    /// and names that are not tokens left out, line breaks in values made spaces), then the
    /// framing and `Accept-Encoding`.
    static func head(
        _ request: HTTPClientRequest, target: SocketRequestTarget, framing: BodyFraming, acceptsCompression: Bool,
        reusing buffer: consuming [UInt8] = []
    ) -> (bytes: [UInt8], asksToClose: Bool) {
        let fields = request.headers
        let method = request.normalizedMethod
        let host = fields.contains("Host") ? nil : target.hostHeader
        let proxyAuthorization = fields.contains("Proxy-Authorization") ? nil : target.proxyAuthorization
        let framingField: (name: String, value: String)? = switch framing {
        case .length(let count) where count > 0 || method == "POST" || method == "PUT" || method == "PATCH":
            ("Content-Length", String(count))
        case .length:
            nil
        case .chunked:
            ("Transfer-Encoding", "chunked")
        }
        let acceptEncoding = acceptsCompression && !fields.contains("Accept-Encoding") ? HTTPClient.acceptedEncodings : nil
        let sent = { (field: HTTPHeaders.Field) in
            isToken(field.name) && !field.name.caseInsensitiveEquals("Content-Length")
                && !field.name.caseInsensitiveEquals("Transfer-Encoding")
        }
        let fieldSize = { (name: String, value: String?) in value.map { name.utf8.count + $0.utf8.count + 4 } ?? 0 }
        var size = method.utf8.count + target.requestTarget.utf8.count + 12 + 2
        size += fieldSize("Host", host) + fieldSize("Proxy-Authorization", proxyAuthorization)
        size += fieldSize(framingField?.name ?? "", framingField?.value) + fieldSize("Accept-Encoding", acceptEncoding)
        var connection: String?
        for field in fields where sent(field) {
            size += fieldSize(field.name, field.value)
            if connection == nil, field.name.caseInsensitiveEquals("Connection") { connection = withoutLineBreaks(field.value) }
        }
        var bytes = consume buffer
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(size)
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: target.requestTarget.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        if let host { append("Host", host, to: &bytes) }
        if let proxyAuthorization { append("Proxy-Authorization", proxyAuthorization, to: &bytes) }
        for field in fields where sent(field) { append(field.name, withoutLineBreaks(field.value), to: &bytes) }
        if let framingField { append(framingField.name, framingField.value, to: &bytes) }
        if let acceptEncoding { append("Accept-Encoding", acceptEncoding, to: &bytes) }
        bytes.append(contentsOf: "\r\n".utf8)
        return (bytes, connection.map(asksToClose) ?? false)
    }

    private static func append(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: ": ".utf8)
        bytes.append(contentsOf: value.utf8)
        bytes.append(contentsOf: "\r\n".utf8)
    }

    /// Whether a `Connection` field's value asks to close the connection after the exchange.
    private static func asksToClose(_ connection: String) -> Bool {
        connection.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
    }

    /// Whether a failed attempt of `method` (upper-cased) may be sent again: the methods RFC 9110
    /// §9.2.2 calls idempotent, never one it does not name.
    static func isIdempotent(_ method: String) -> Bool {
        idempotentMethods.contains(method)
    }

    private static let idempotentMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    /// Whether `name` is a token (RFC 9110 §5.6.2): a switch on each byte, not a scan of the
    /// delimiters' string per byte (it runs twice for every field of every request).
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case 0...0x20, 0x7F...: false
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: ","),
                 UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "["),
                 UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "{"), UInt8(ascii: "}"): false
            default: true
            }
        }
    }

    /// `value` with every CR and LF byte made a space (the same size): bytes, not characters,
    /// since "\r\n" is one `Character`, equal to neither "\r" nor "\n", and would pass whole.
    private static func withoutLineBreaks(_ value: String) -> String {
        let breaksLine = { (byte: UInt8) in byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") }
        guard value.utf8.contains(where: breaksLine) else { return value }
        return String(decoding: value.utf8.map { breaksLine($0) ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
