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
    /// fields already copied).
    static func head(
        _ request: HTTPClientRequest, target: SocketRequestTarget, framing: BodyFraming, acceptsCompression: Bool
    ) -> (bytes: [UInt8], asksToClose: Bool) {
        var head = requestHead(request, target: target)
        switch framing {
        case .length(let count):
            let method = head.method
            if count > 0 || method == "POST" || method == "PUT" || method == "PATCH" {
                head.headers.add(name: "Content-Length", value: String(count))
            }
        case .chunked:
            head.headers.add(name: "Transfer-Encoding", value: "chunked")
        }
        if acceptsCompression, !head.headers.contains("Accept-Encoding") {
            head.headers.add(name: "Accept-Encoding", value: HTTPClient.acceptedEncodings)
        }
        return (head.serialized(), head.headers["Connection"].map(asksToClose) ?? false)
    }

    private static func requestHead(_ request: HTTPClientRequest, target: SocketRequestTarget) -> HTTPRequestHead {
        let fields = request.headers
        // Room for `Host`, a proxy's credentials and what `head` adds (framing, `Accept-Encoding`): one buffer a request.
        var wire: [HTTPHeaders.Field] = []
        wire.reserveCapacity(fields.count + 4)
        if !fields.contains("Host") {
            wire.append(HTTPHeaders.Field(name: "Host", value: target.hostHeader))
        }
        if let authorization = target.proxyAuthorization, !fields.contains("Proxy-Authorization") {
            wire.append(HTTPHeaders.Field(name: "Proxy-Authorization", value: authorization))
        }
        // In the caller's order, repeats included.
        for field in fields {
            let lowered = field.name.lowercased()
            guard lowered != "content-length", lowered != "transfer-encoding", isToken(field.name) else { continue }
            wire.append(HTTPHeaders.Field(name: field.name, value: withoutLineBreaks(field.value)))
        }
        return HTTPRequestHead(method: request.normalizedMethod, target: target.requestTarget, headers: HTTPHeaders(wire))
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

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
        }
    }

    private static func withoutLineBreaks(_ value: String) -> String {
        guard value.contains(where: { $0 == "\r" || $0 == "\n" }) else { return value }
        return String(value.map { $0 == "\r" || $0 == "\n" ? " " : $0 })
    }
}
