import Foundation
import HTTPWire
import EventLoopIO

/// One request for `HTTPClient`: an `http://` URL, a method, header fields and an optional body,
/// with where the response body goes and who hears of progress.
///
/// ```swift
/// var request = HTTPClientRequest(url: URL(string: "http://127.0.0.1:8080/feed")!)
/// request.headers["Accept"] = "application/json"
/// ```
public struct HTTPClientRequest: Sendable {
    /// The `http://` URL to send to; redirects replace it on the client's copy.
    public var url: URL
    /// The method token, `GET` by default (sent upper-cased).
    public var method: String
    /// Header fields sent in order, repeats included (names compared without case; a
    /// dictionary literal assigned here keeps its order); `Host` is added first unless given,
    /// `Content-Length` and `Transfer-Encoding` are the client's, and `Accept-Encoding: gzip,
    /// deflate` is added when unset, no `downloadFile` is given and decompression is not disabled.
    /// A name that is not a token is left out, CR, LF and NUL in a value go as spaces, and
    /// `Proxy-Authorization` and `Proxy-Connection` never go inside a proxy's tunnel.
    ///
    /// ```swift
    /// request.headers.add(name: "Via", value: "1.1 edge")
    /// request.headers.add(name: "Via", value: "1.1 origin")
    /// ```
    public var headers: HTTPHeaders
    /// The body, if any: framed by `Content-Length` when its length is known, chunked otherwise.
    public var body: Body?
    /// Replaces `Configuration.idleTimeout` for this request when set.
    public var idleTimeout: Duration?
    /// When set, the response body is written to this file (created or emptied) as it arrives,
    /// with no size limit; the response then has an empty `body` and this `fileURL`.
    public var downloadFile: URL?
    /// Told the body bytes sent so far and the total when known (on the client's `deliveryQueue`).
    /// Over plain http a piece counts once queued for the socket, at most 1 MiB ahead of it;
    /// the last update comes when every byte is written.
    public var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?
    /// Told the fraction (0...1) of the response body received (on the client's `deliveryQueue`);
    /// -1 each time body bytes arrive while its size is not known (no usable `Content-Length`).
    public var downloadProgress: (@Sendable (Double) -> Void)?
    /// Called on the exchange's loop for each redirect the client follows, after `RedirectPolicy`
    /// made the next hop's fields: with the redirect's head, the URL that answered it, the next
    /// URL and the next hop's fields to change (a cookie jar stores the redirect's `Set-Cookie`
    /// and puts the next URL's own `Cookie` there). It must not block.
    public var redirectHook: RedirectHook?

    /// What `redirectHook` is: `(redirect head, from, to, next fields)`.
    public typealias RedirectHook = @Sendable (_ redirect: HTTPResponseHead, _ from: URL, _ to: URL,
                                               _ headers: inout HTTPHeaders) -> Void
    /// When set, the instant by which the whole request (the wait for a connection, every
    /// redirect, the body) must be done, else it fails with `HTTPClientError.timedOut(.overall, ...)`;
    /// it replaces `Configuration.overallDeadline` for this request. An instant passed already
    /// fails the request at once, before any connection is opened for it.
    public var deadline: ContinuousClock.Instant? {
        get { deadlineMoment?.instant }
        set { deadlineMoment = newValue.map(MonotonicTime.init) }
    }
    /// `deadline` as the package keeps it (see `MonotonicTime`).
    var deadlineMoment: MonotonicTime?
    /// Which redirects this request follows; nil follows up to `Configuration.maximumRedirects`.
    public var redirects: Redirects?
    /// Whether the body is asked for compressed and decoded; nil decodes `gzip` and `deflate`
    /// within `Configuration.maximumResponseSize` only.
    public var decompression: Decompression?
    /// Told the request's timings once it ends, whether it succeeded or failed (on the client's
    /// `deliveryQueue`, before the completion): the way to have them for a failure, which
    /// `HTTPClientError` does not carry.
    public var timingsHandler: (@Sendable (HTTPClientTimings) -> Void)?
    /// Where the final response's head and body go for `HTTPClient.stream(_:)` (nil for `execute`).
    var responseStream: ResponseBodyStream?

    /// A request; pass only what differs from a bodyless `GET`.
    public init(url: URL, method: String = "GET", headers: HTTPHeaders = [:], body: Body? = nil,
                idleTimeout: Duration? = nil, downloadFile: URL? = nil, deadline: ContinuousClock.Instant? = nil,
                redirects: Redirects? = nil, decompression: Decompression? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
        self.downloadFile = downloadFile
        self.deadline = deadline
        self.redirects = redirects
        self.decompression = decompression
    }

    /// A request whose header fields come from a dictionary (ordered by name, as
    /// `HTTPHeaders(_:)` orders them), for callers that hold them as `[String: String]`.
    public init(url: URL, method: String = "GET", headers: [String: String], body: Body? = nil,
                idleTimeout: Duration? = nil, downloadFile: URL? = nil, deadline: ContinuousClock.Instant? = nil,
                redirects: Redirects? = nil, decompression: Decompression? = nil) {
        self.init(url: url, method: method, headers: HTTPHeaders(headers), body: body, idleTimeout: idleTimeout,
                  downloadFile: downloadFile, deadline: deadline, redirects: redirects, decompression: decompression)
    }

    /// Where a request body comes from; a retry or a redirect reads it again from the start (but
    /// `chunks`, read once).
    public enum Body: Sendable {
        /// Bytes in memory.
        case bytes(Data)
        /// A file read in chunks as it is sent (on an I/O queue, never on a loop); its size is the length.
        case file(URL)
        /// A stream made fresh for every attempt, with its length when known.
        case stream(@Sendable () -> InputStream?, length: Int64?)
        /// Chunks from an `AsyncSequence`, read once, with the length when known: made by
        /// `chunks(_:length:)`.
        case asyncSequence(AsyncChunks, length: Int64?)
    }

    /// `method` upper-cased, `GET` when empty.
    var normalizedMethod: String {
        method.isEmpty ? "GET" : method.uppercased()
    }
}
