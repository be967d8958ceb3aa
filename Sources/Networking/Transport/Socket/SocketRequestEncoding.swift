import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire

/// Turns a `URLRequest` into HTTP/1.1 bytes: request line, `Host`, the request's own fields,
/// and the body (`httpBody`, or `httpBodyStream` read to its end) with `Content-Length`.
enum SocketRequestEncoding {
    /// The method of `request`, `GET` when unset.
    /// The `Accept-Encoding` the transport sends when the request sets none (it decodes both).
    static let acceptedEncodings = "gzip, deflate"

    /// The method of `request`, `GET` when unset.
    static func method(of request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        return method.isEmpty ? "GET" : method.uppercased()
    }

    /// How the body of a request goes on the wire.
    enum BodyFraming {
        /// This many bytes after the head (`Content-Length`; 0 sends the field only for methods that carry a body).
        case length(Int64)
        /// `Transfer-Encoding: chunked`, for a stream of unknown length.
        case chunked
    }

    /// The head to send for `request` to `target` with `framing`, adding `Accept-Encoding:
    /// gzip, deflate` when the caller set none and `acceptsCompression` (the transport decodes
    /// them), and whether it asks to close the connection after the exchange (read from the
    /// fields already copied, so the `URLRequest` is not asked again).
    static func head(
        _ request: URLRequest, target: SocketRequestTarget, framing: BodyFraming, acceptsCompression: Bool
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
            head.headers.add(name: "Accept-Encoding", value: acceptedEncodings)
        }
        return (head.serialized(), head.headers["Connection"].map(asksToClose) ?? false)
    }

    private static func requestHead(_ request: URLRequest, target: SocketRequestTarget) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        if !fields.contains(where: { $0.key.lowercased() == "host" }) {
            headers.add(name: "Host", value: target.hostHeader)
        }
        for (name, value) in fields {
            let lowered = name.lowercased()
            guard lowered != "content-length", lowered != "transfer-encoding", isToken(name) else { continue }
            headers.add(name: name, value: withoutLineBreaks(value))
        }
        return HTTPRequestHead(method: method(of: request), target: target.requestTarget, headers: headers)
    }

    /// Whether a `Connection` field's value asks to close the connection after the exchange.
    private static func asksToClose(_ connection: String) -> Bool {
        connection.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
    }

    /// Whether a failed attempt of `method` may be sent again: `HTTPMethod.isIdempotent`, and
    /// never for a method `HTTPMethod` does not name.
    static func isIdempotent(_ method: String) -> Bool {
        HTTPMethod(rawValue: method)?.isIdempotent ?? false
    }

    /// The body `request` carries itself (`httpBody`, or `httpBodyStream` read to its end once,
    /// so that a retry or a redirect can send it again), nil when it has none.
    static func uploadSource(of request: URLRequest) -> UploadSource? {
        if let data = request.httpBody { return .data(data) }
        guard request.httpBodyStream != nil else { return nil }
        return .data(Data(body(of: request)))
    }

    private static func body(of request: URLRequest) -> [UInt8] {
        if let data = request.httpBody { return [UInt8](data) }
        guard let stream = request.httpBodyStream else { return [] }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

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
