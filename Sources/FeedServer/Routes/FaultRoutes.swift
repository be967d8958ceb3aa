import Foundation
import HTTPWire

/// The routes that misbehave on purpose, for fault-handling tests.
enum FaultRoutes {
    /// The largest `/bytes/{n}` body served (100 MB).
    static let maxStreamedBytes = 100 * 1_048_576

    /// `/status/{code}?body=json|html|empty&retryAfter=N`: that status (200...599) with the chosen
    /// body (none for 204, 205 and 304).
    static func status(_ route: RouteContext, code text: String) -> Connection.Disposition {
        guard let code = Int(text), (200...599).contains(code) else {
            return route.badRequest("status code must be 200...599, got \(text)")
        }
        let reason = HTTPResponseHead.standardReason(for: code)
        var response: HTTPResponse
        // RFC 9110 §15.3.6: a server MUST NOT send content in a 205; it says Content-Length: 0.
        switch code == 205 ? "empty" : (route.query["body"] ?? "json") {
        case "html":
            let html = "<!DOCTYPE html><html><head><title>\(code) \(reason)</title></head><body><h1>\(code) \(reason)</h1></body></html>"
            response = Responses.response(status: code, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
        case "empty":
            response = Responses.response(status: code, contentType: nil, body: [])
        default:
            response = Responses.json(status: code, code: "E\(code)", message: reason)
        }
        if let retryAfter = route.query["retryAfter"] {
            // RFC 9110 §5.5: a field value holds no CR, LF, NUL or other control but tab; one
            // decoded from the query would otherwise end the field and start another.
            guard !retryAfter.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                return route.badRequest("retryAfter must be a field value without control characters")
            }
            response.head.headers.add(name: "Retry-After", value: retryAfter)
        }
        return route.respond(response)
    }

    /// `/delay/{ms}`: 200 after the delay (at most 10 minutes); closes without answering when the server stops first.
    static func delay(_ route: RouteContext, milliseconds text: String) -> Connection.Disposition {
        guard let milliseconds = Int(text), (0...600_000).contains(milliseconds) else {
            return route.badRequest("delay must be 0...600000 ms, got \(text)")
        }
        guard route.afterWait else { return .wait(.milliseconds(milliseconds), watchingForClose: false) }
        return route.respond(Responses.jsonObject(["delayMilliseconds": milliseconds]))
    }

    /// `/hang`: never answers; the connection closes once the client closes or the server stops.
    static func hang(_ route: RouteContext) -> Connection.Disposition {
        .hang
    }

    /// `/drop`: closes without sending a byte.
    static func drop(_ route: RouteContext) -> Connection.Disposition {
        .close
    }

    /// `/reset`: closes with `SO_LINGER` 0 so the client sees a reset.
    static func reset(_ route: RouteContext) -> Connection.Disposition {
        .reset
    }

    /// `/half`: announces 1000 body bytes, sends 500, closes (over TLS without `close_notify`:
    /// a connection cut after the head, in the body).
    static func half(_ route: RouteContext) -> Connection.Disposition {
        let head = Responses.head(status: 200, fields: ["Content-Type": "application/octet-stream", "Content-Length": "1000"])
        return .cut(head.serialized() + [UInt8](repeating: UInt8(ascii: "h"), count: 500), withholding: 0)
    }

    /// The body `/cut-record` announces: two full TLS records' worth and a little more, so that
    /// over TLS the head and the first records arrive whole before the cut.
    static let cutRecordBodyBytes = 32_768
    /// What `/cut-record` keeps back of its last bytes on the wire: less than any TLS record.
    static let cutRecordWithheld = 16

    /// `/cut-record`: announces `cutRecordBodyBytes` body bytes and sends all but the last 16
    /// bytes on the wire, then closes without `close_notify`: over TLS the connection ends inside
    /// the last record, over plain HTTP 16 body bytes short.
    static func cutRecord(_ route: RouteContext) -> Connection.Disposition {
        let head = Responses.head(status: 200, fields: ["Content-Type": "application/octet-stream",
                                                        "Content-Length": String(cutRecordBodyBytes), "Connection": "close"])
        return .cut(head.serialized() + [UInt8](repeating: UInt8(ascii: "r"), count: cutRecordBodyBytes), withholding: cutRecordWithheld)
    }

    /// The largest body `/until-close` sends.
    static let maxUntilCloseBytes = 10_485_760

    /// `/until-close/{n}` and `/until-close/{n}/{sent}`: a body delimited by the connection's end
    /// (no `Content-Length`, not chunked) of n bytes `u`; then the connection closes (over TLS
    /// after `close_notify`: a complete close). With `sent` below n, only `sent` bytes go out and
    /// the connection is cut (over TLS without `close_notify`: an incomplete close, which a client
    /// must not take for the whole body, RFC 9112 §9.8; over plain HTTP no client can tell).
    static func untilClose(_ route: RouteContext, count text: String, sent sentText: String?) -> Connection.Disposition {
        guard let count = Int(text), (0...maxUntilCloseBytes).contains(count) else {
            return route.badRequest("byte count must be 0...\(maxUntilCloseBytes), got \(text)")
        }
        let sent = sentText.flatMap(Int.init) ?? count
        guard (0...count).contains(sent) else { return route.badRequest("bytes sent must be 0...\(count), got \(sentText ?? "")") }
        let head = Responses.head(status: 200, fields: ["Content-Type": "application/octet-stream", "Connection": "close"])
        if route.isHEAD { return .send(head.serialized(), keepAlive: false) }
        let bytes = head.serialized() + [UInt8](repeating: UInt8(ascii: "u"), count: sent)
        return sent < count ? .cut(bytes, withholding: 0) : .send(bytes, keepAlive: false)
    }

    /// `/bytes/{n}`: n body bytes, byte i being `i % 256`, streamed in 64 KiB writes, each once
    /// the client has taken the one before.
    static func bytes(_ route: RouteContext, count text: String) -> Connection.Disposition {
        guard let count = Int(text), (0...maxStreamedBytes).contains(count) else {
            return route.badRequest("byte count must be 0...\(maxStreamedBytes), got \(text)")
        }
        let head = route.connectionFields(Responses.head(status: 200, fields: ["Content-Type": "application/octet-stream", "Content-Length": String(count)]))
        if route.isHEAD { return .send(head.serialized(), keepAlive: route.keepAlive) }
        return .stream(head: head.serialized(), bodyBytes: count, keepAlive: route.keepAlive)
    }

    /// `/drip?interval=ms&count=n`: headers, then one body byte every interval (defaults 100 ms, 10 bytes).
    static func drip(_ route: RouteContext) -> Connection.Disposition {
        let interval = route.query.int("interval", default: 100)
        let count = route.query.int("count", default: 10)
        guard (0...60_000).contains(interval), (0...100_000).contains(count) else {
            return route.badRequest("interval must be 0...60000 ms and count 0...100000")
        }
        let head = route.connectionFields(Responses.head(status: 200, fields: ["Content-Type": "text/plain", "Content-Length": String(count)]))
        if route.isHEAD { return .send(head.serialized(), keepAlive: route.keepAlive) }
        return .drip(head: head.serialized(), interval: .milliseconds(interval), bytes: count, keepAlive: route.keepAlive)
    }

    /// `/garbage`: bytes that are not HTTP, then close.
    static func garbage(_ route: RouteContext) -> Connection.Disposition {
        .send(Array("SSH-2.0-NotHTTP\r\n\u{1}\u{2}\u{3} this is not an HTTP response \u{7F}\r\n\r\n".utf8) + [0xFF, 0xFE, 0x00], keepAlive: false)
    }

    /// `/cut-headers`: a response cut inside its headers, then close (over TLS without `close_notify`).
    static func cutHeaders(_ route: RouteContext) -> Connection.Disposition {
        .cut(Array("HTTP/1.1 200 OK\r\nContent-Ty".utf8), withholding: 0)
    }

    /// `/wrong-length?actual=N&declared=M`: declares M body bytes, sends N, closes (defaults 10 and 20).
    static func wrongLength(_ route: RouteContext) -> Connection.Disposition {
        let actual = route.query.int("actual", default: 10)
        let declared = route.query.int("declared", default: 20)
        guard (0...10_485_760).contains(actual), declared >= 0 else {
            return route.badRequest("actual must be 0...10485760 and declared non-negative")
        }
        let head = Responses.head(status: 200, fields: ["Content-Type": "text/plain", "Content-Length": String(declared), "Connection": "close"])
        return .send(head.serialized() + [UInt8](repeating: UInt8(ascii: "w"), count: actual), keepAlive: false)
    }

    /// The body `/chunked` sends, decoded.
    static let chunkedBody = "Hello, chunked world! This body arrives in four chunks."

    /// `/chunked`: the body in chunks, two of them with extensions, and a trailer field
    /// `X-Checksum`; to an HTTP/1.0 client, which cannot read chunks (RFC 9112 §6.1), the body
    /// framed by `Content-Length`.
    static func chunked(_ route: RouteContext) -> Connection.Disposition {
        let body = Array(chunkedBody.utf8)
        if route.request.head.version == .http1_0 {
            return route.respond(Responses.response(status: 200, contentType: "text/plain; charset=utf-8", body: body))
        }
        let head = route.connectionFields(Responses.head(status: 200, fields: ["Content-Type": "text/plain; charset=utf-8", "Transfer-Encoding": "chunked", "Trailer": "X-Checksum"]))
        if route.isHEAD { return .send(head.serialized(), keepAlive: route.keepAlive) }
        var bytes = head.serialized()
        bytes += ChunkedEncoder.chunk(body[0..<7], extension: "name=value")
        bytes += ChunkedEncoder.chunk(body[7..<22])
        bytes += ChunkedEncoder.chunk(body[22..<40], extension: "quoted=\"a b\"")
        bytes += ChunkedEncoder.chunk(body[40...])
        bytes += ChunkedEncoder.end(trailers: ["X-Checksum": String(body.count)])
        return .send(bytes, keepAlive: route.keepAlive)
    }

    /// `/flaky?failures=N&key=K`: the first N requests for K answer 503, later ones 200.
    static func flaky(_ route: RouteContext) -> Connection.Disposition {
        let failures = route.query.int("failures", default: 1)
        let key = route.query["key"] ?? ""
        let attempt = route.server.state.withLock { state in
            state.flakyAttempts[key, default: 0] += 1
            return state.flakyAttempts[key, default: 0]
        }
        if attempt <= failures {
            return route.respond(Responses.json(status: 503, code: "E503", message: "Flaky failure \(attempt) of \(failures)"))
        }
        return route.respond(Responses.jsonObject(["attempt": attempt, "key": key]))
    }
}
