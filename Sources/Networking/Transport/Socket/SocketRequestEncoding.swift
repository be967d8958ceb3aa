import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire

/// Turns a `URLRequest` into HTTP/1.1 bytes: request line, `Host`, the request's own fields,
/// and the body (`httpBody`, or `httpBodyStream` read to its end) with `Content-Length`.
enum SocketRequestEncoding {
    /// The method of `request`, `GET` when unset.
    static func method(of request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        return method.isEmpty ? "GET" : method.uppercased()
    }

    /// The bytes to send for `request` to `target`.
    static func encode(_ request: URLRequest, target: SocketRequestTarget) -> [UInt8] {
        var headers = HTTPHeaders()
        let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        if !fields.contains(where: { $0.key.caseInsensitiveCompare("Host") == .orderedSame }) {
            headers.add(name: "Host", value: target.hostHeader)
        }
        for (name, value) in fields {
            let lowered = name.lowercased()
            guard lowered != "content-length", lowered != "transfer-encoding", isToken(name) else { continue }
            headers.add(name: name, value: withoutLineBreaks(value))
        }
        let head = HTTPRequestHead(method: method(of: request), target: target.requestTarget, headers: headers)
        return HTTPRequest(head: head, body: body(of: request)).serialized()
    }

    /// Whether `request` asks to close the connection after the exchange.
    static func asksToClose(_ request: URLRequest) -> Bool {
        guard let value = request.value(forHTTPHeaderField: "Connection") else { return false }
        return value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
    }

    /// Whether a failed attempt of `method` may be sent again (RFC 9110 idempotent methods).
    static func isIdempotent(_ method: String) -> Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(method)
    }

    /// `request` with an `httpBodyStream` read into `httpBody`, so that a redirect can send it again.
    static func withBodyInMemory(_ request: URLRequest) -> URLRequest {
        guard request.httpBody == nil, request.httpBodyStream != nil else { return request }
        var copy = request
        let body = Data(body(of: request))
        copy.httpBodyStream = nil
        copy.httpBody = body
        return copy
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
