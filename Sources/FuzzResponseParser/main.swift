// libFuzzer entry for the response parser that `HTTPClient` runs on every answer it reads (and
// on a proxy's answer to `CONNECT`); `scripts/fuzz.sh response` builds it with
// `-sanitize=fuzzer,address` and `-parse-as-library`. A plain `swift build` links an executable
// that does nothing.
//
// Each input is one request's answer:
//   byte 0      bits 0-1: the request's method (GET, HEAD, CONNECT, POST); bit 2: the connection
//               ends without TLS's `close_notify` (an incomplete close)
//   the rest    the bytes the server sends before the connection ends
import HTTPWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseParser(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    guard let selector = input.first else { return 0 }
    let method = ["GET", "HEAD", "CONNECT", "POST"][Int(selector & 3)]
    checkResponse(Array(input.dropFirst()), method: method, end: selector & 4 == 0 ? .complete : .incomplete)
    return 0
}

/// What reading one answer came to: the response and the bytes after it, or the first error.
enum Outcome: Equatable {
    case response(HTTPResponse, after: [UInt8])
    case failure(HTTPWireError)
}

/// How the bytes reach the parser.
enum Feeding {
    /// In one piece.
    case whole
    /// In 7-byte pieces through `feed`.
    case pieces
    /// In 7-byte pieces, a body's plain bytes through `feedBody` (as a transport that reads
    /// them into buffers of its own hands them on).
    case plainBodies
}

/// The invariants: no crash, whatever the bytes; the three feedings come to the same response
/// and the same bytes after it, or to the same error; a body never passes the limit; a framed
/// body has its framing's size and a response without a body (HEAD, 1xx, 204, 304, a tunnel's
/// 2xx) has none; a response serialized again parses to the same status and body.
func checkResponse(_ input: [UInt8], method: String, end: HTTPStreamEnd) {
    let whole = read(input, method: method, end: end, feeding: .whole)
    for feeding in [Feeding.pieces, .plainBodies] {
        let other = read(input, method: method, end: end, feeding: feeding)
        guard other == whole else { fatalError("\(feeding) reads \(other), whole \(whole)") }
    }
    guard case .response(let response, _) = whole else { return }
    guard response.body.count <= limits.body else { fatalError("the body passed the limit") }
    switch try? response.head.bodyFraming(requestMethod: method) {
    case .none?:
        guard response.body.isEmpty else { fatalError("a response without a body has one") }
    case .contentLength(let length)?:
        guard response.body.count == length else { fatalError("\(response.body.count) body bytes for a length of \(length)") }
    case .chunked?, .untilClose?:
        break
    case nil:
        fatalError("a response parsed whose framing fails")
    }
    var again = HTTPResponseParser(requestMethod: method, maxHeaderBytes: 1 << 20, maxBodyBytes: 1 << 20)
    guard let reparsed = try? again.feed(response.serialized()) ?? again.finishAtEndOfStream() else {
        fatalError("a parsed response does not parse again once serialized")
    }
    guard reparsed.head.status == response.head.status, reparsed.body == response.body else {
        fatalError("serializing changed the response")
    }
}

/// The limits the three feedings share: small, so that inputs reach them.
let limits = (head: 4_096, body: 65_536)

/// Reads `input` as the answer to a `method` request, fed as `feeding` says, the stream ending
/// as `end` says once the bytes run out before the response is whole.
func read(_ input: [UInt8], method: String, end: HTTPStreamEnd, feeding: Feeding) -> Outcome {
    var parser = HTTPResponseParser(requestMethod: method, maxHeaderBytes: limits.head, maxBodyBytes: limits.body)
    let size = feeding == .whole ? max(input.count, 1) : 7
    var start = 0
    do throws(HTTPWireError) {
        while start < input.count {
            var piece = input[start..<min(start + size, input.count)]
            start = piece.endIndex
            if feeding == .plainBodies, parser.plainBodyBytesExpected > 0 {
                let plain = piece.prefix(parser.plainBodyBytesExpected)
                piece = piece[plain.endIndex...]
                if let response = try parser.feedBody(Array(plain)) {
                    return .response(response, after: parser.unusedBytes + piece + input[start...])
                }
                if piece.isEmpty { continue }
            }
            if let response = try parser.feed(piece) {
                return .response(response, after: parser.unusedBytes + input[start...])
            }
        }
        return .response(try parser.finishAtEndOfStream(end), after: [])
    } catch {
        return .failure(error)
    }
}
