import Foundation
import HTTPWire

/// A complete response from `HTTPClient`: the head as received and the body decoded.
public struct HTTPClientResponse: Sendable {
    /// The status line and header fields as received (`Content-Encoding` names a coding the
    /// client removed from `body`, as URLSession does).
    public let head: HTTPResponseHead
    /// The body, decoded from `gzip` / `deflate`; empty when it went to `fileURL`.
    public let body: [UInt8]
    /// The URL that answered (the last one after redirects).
    public let url: URL
    /// The file the body was written to, for a request with a `downloadFile` that was not
    /// answered with a redirect status.
    public let fileURL: URL?

    /// When each step of the request happened and the bytes it moved.
    public let timings: HTTPClientTimings

    /// The status code.
    public var status: Int { head.status }

    /// Creates a response (the client makes them; tests of code that takes one may too).
    public init(head: HTTPResponseHead, body: [UInt8], url: URL, fileURL: URL? = nil, timings: HTTPClientTimings = HTTPClientTimings()) {
        self.head = head
        self.body = body
        self.url = url
        self.fileURL = fileURL
        self.timings = timings
    }

    /// The response with `timings`.
    func with(_ timings: HTTPClientTimings) -> HTTPClientResponse {
        HTTPClientResponse(head: head, body: body, url: url, fileURL: fileURL, timings: timings)
    }
}
