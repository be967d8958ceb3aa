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
    /// proxy's credentials, the caller's fields in order (repeats included; the framing fields,
    /// names that are not tokens and, inside a proxy's tunnel, `Proxy-Authorization` and
    /// `Proxy-Connection` left out; CR, LF and NUL in values made spaces), then the framing and
    /// `Accept-Encoding`. The method is the caller's to check (`HTTPClient.start` refuses one
    /// that is not a token before anything connects).
    static func head(
        _ request: HTTPClientRequest, target: SocketRequestTarget, framing: BodyFraming, acceptsCompression: Bool,
        reusing buffer: consuming [UInt8] = []
    ) -> (bytes: [UInt8], asksToClose: Bool) {
        let fields = request.headers
        let method = request.normalizedMethod
        // One pass over the fields: which of the client's own they set, and the size of those sent.
        var setsHost = false, setsProxyAuthorization = false, setsAcceptEncoding = false
        // Every `Connection` line counts: the lines of one field make one list (RFC 9110 §5.3).
        var closes = false
        var leavesSomeOut = false
        var fieldsSize = 0
        for field in fields {
            let role = FieldRole(field.name)
            if role.isLeftOut(tunnelled: target.tunnelled) {
                leavesSomeOut = true
                continue
            }
            switch role {
            case .host: setsHost = true
            case .proxyAuthorization: setsProxyAuthorization = true
            case .acceptEncoding: setsAcceptEncoding = true
            case .connection: closes = closes || asksToClose(withoutLineBreaks(field.value))
            case .framing, .proxyConnection, .other: break
            }
            guard isToken(field.name) else {
                leavesSomeOut = true
                continue
            }
            fieldsSize += field.name.utf8.count + field.value.utf8.count + 4
        }
        let host = setsHost ? nil : target.hostHeader
        let proxyAuthorization = setsProxyAuthorization ? nil : target.proxyAuthorization
        let framingField: (name: String, value: String)? = switch framing {
        case .length(let count) where count > 0 || method == "POST" || method == "PUT" || method == "PATCH":
            ("Content-Length", String(count))
        case .length:
            nil
        case .chunked:
            ("Transfer-Encoding", "chunked")
        }
        let acceptEncoding = acceptsCompression && !setsAcceptEncoding ? HTTPClient.acceptedEncodings : nil
        let fieldSize = { (name: String, value: String?) in value.map { name.utf8.count + $0.utf8.count + 4 } ?? 0 }
        var size = method.utf8.count + target.requestTarget.utf8.count + 12 + 2 + fieldsSize
        size += fieldSize("Host", host) + fieldSize("Proxy-Authorization", proxyAuthorization)
        size += fieldSize(framingField?.name ?? "", framingField?.value) + fieldSize("Accept-Encoding", acceptEncoding)
        var bytes = consume buffer
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(size)
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: target.requestTarget.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        if let host { append("Host", host, to: &bytes) }
        if let proxyAuthorization { append("Proxy-Authorization", proxyAuthorization, to: &bytes) }
        for field in fields {
            if leavesSomeOut, FieldRole(field.name).isLeftOut(tunnelled: target.tunnelled) || !isToken(field.name) { continue }
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            let valueStart = bytes.count
            bytes.append(contentsOf: field.value.utf8)
            mendUnsafeBytes(in: &bytes, from: valueStart)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        if let framingField { append(framingField.name, framingField.value, to: &bytes) }
        if let acceptEncoding { append("Accept-Encoding", acceptEncoding, to: &bytes) }
        bytes.append(contentsOf: "\r\n".utf8)
        return (bytes, closes)
    }

    /// What a field's name is to the head: a framing field (left out: the client frames the
    /// body), one the client adds unless the caller set it, `Connection`, `Proxy-Connection`, or
    /// any other. Names of other lengths cost one comparison.
    private enum FieldRole: Equatable {
        case framing, host, proxyAuthorization, acceptEncoding, connection, proxyConnection, other

        /// Whether a field of this role stays out of the head: the framing fields always (the
        /// client frames the body); inside a proxy's tunnel, the fields meant for the proxy
        /// (RFC 9110 §11.7.2: its credentials), which the origin at the tunnel's end must not see.
        func isLeftOut(tunnelled: Bool) -> Bool {
            switch self {
            case .framing: true
            case .proxyAuthorization, .proxyConnection: tunnelled
            case .host, .acceptEncoding, .connection, .other: false
            }
        }

        init(_ name: String) {
            self = switch name.utf8.count {
            case 4 where name.caseInsensitiveEquals("Host"): .host
            case 10 where name.caseInsensitiveEquals("Connection"): .connection
            case 14 where name.caseInsensitiveEquals("Content-Length"): .framing
            case 15 where name.caseInsensitiveEquals("Accept-Encoding"): .acceptEncoding
            case 16 where name.caseInsensitiveEquals("Proxy-Connection"): .proxyConnection
            case 17 where name.caseInsensitiveEquals("Transfer-Encoding"): .framing
            case 19 where name.caseInsensitiveEquals("Proxy-Authorization"): .proxyAuthorization
            default: .other
            }
        }
    }

    /// Makes every CR, LF and NUL byte from `start` on a space: a value's line break would end
    /// its field, and RFC 9110 §5.5 lets no sender write any of the three (a recipient may cut
    /// the value, or the name resolved, at a NUL).
    private static func mendUnsafeBytes(in bytes: inout [UInt8], from start: Int) {
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in start..<buffer.count
            where buffer[index] == UInt8(ascii: "\r") || buffer[index] == UInt8(ascii: "\n") || buffer[index] == 0 {
                buffer[index] = UInt8(ascii: " ")
            }
        }
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

    /// Whether `name` (a field's name, or a method) is a token (RFC 9110 §5.6.2): a switch on
    /// each byte, not a scan of the delimiters' string per byte (it runs for every field of
    /// every request).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && (name.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isTokenByte) } ?? name.utf8.allSatisfy(isTokenByte))
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F...: false
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: ","),
             UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "{"), UInt8(ascii: "}"): false
        default: true
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
