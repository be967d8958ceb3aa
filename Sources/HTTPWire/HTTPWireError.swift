/// A violation of HTTP/1.1 framing found while parsing bytes.
///
/// Offsets count bytes from the start of the message head (for head errors) or from the
/// first body byte handed to the decoder (for body errors).
public enum HTTPWireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The head grew past `limit` bytes without its terminating empty line.
    case headersTooLarge(limit: Int)
    /// The request or status line is malformed at `offset`.
    case malformedStartLine(offset: Int)
    /// A header field line is malformed at `offset`.
    case malformedHeader(offset: Int)
    /// The HTTP version is not `HTTP/1.0` or `HTTP/1.1`; `offset` is where it starts.
    case unsupportedVersion(offset: Int)
    /// A `Content-Length` value is not a non-negative decimal number, or several disagree.
    case invalidContentLength(String)
    /// A `Transfer-Encoding` other than a final `chunked` was announced.
    case unsupportedTransferEncoding(String)
    /// Chunked framing is malformed at `offset` (counted from the first body byte).
    case malformedChunk(offset: Int)
    /// The body grew past `limit` bytes.
    case bodyTooLarge(limit: Int)
    /// A compressed body (`Content-Encoding: gzip` or `deflate`) is malformed at `offset`.
    case invalidContentCoding(offset: Int)
    /// The connection ended inside the head after `received` bytes.
    case truncatedHead(received: Int)
    /// The connection ended inside the body; `expected` is nil when the length was unknown (chunked).
    case truncatedBody(expected: Int?, received: Int)
    /// The connection ended with an incomplete close (TLS without `close_notify`) inside a body
    /// delimited by the connection's end, after `received` body bytes: RFC 9112 §9.8 counts such
    /// a body incomplete, since anyone on the path may have cut it.
    case incompleteClose(received: Int)

    /// A short English description naming the problem and where it is.
    public var description: String {
        switch self {
        case .headersTooLarge(let limit): "header section larger than \(limit) bytes"
        case .malformedStartLine(let offset): "malformed start line at byte \(offset)"
        case .malformedHeader(let offset): "malformed header field at byte \(offset)"
        case .unsupportedVersion(let offset): "unsupported HTTP version at byte \(offset)"
        case .invalidContentLength(let value): "invalid Content-Length \"\(value)\""
        case .unsupportedTransferEncoding(let value): "unsupported Transfer-Encoding \"\(value)\""
        case .malformedChunk(let offset): "malformed chunked body at byte \(offset)"
        case .bodyTooLarge(let limit): "body larger than \(limit) bytes"
        case .invalidContentCoding(let offset): "malformed compressed body at byte \(offset)"
        case .truncatedHead(let received): "connection closed inside the head after \(received) bytes"
        case .truncatedBody(let expected, let received):
            if let expected {
                "connection closed after \(received) of \(expected) body bytes"
            } else {
                "connection closed inside a chunked body after \(received) bytes"
            }
        case .incompleteClose(let received):
            "connection closed without close_notify after \(received) bytes of a body delimited by the close"
        }
    }
}
