import EventLoopIO

extension HTTPClientRequest {
    /// Whether a request follows redirects (301, 302, 303, 307, 308 with a usable `Location`).
    public enum Redirects: Sendable, Equatable {
        /// Follows up to `max` redirects; one more fails with `HTTPClientError.tooManyRedirects`.
        case follow(max: Int)
        /// Follows none: the redirect response is returned as it is, `Location` and body included.
        case disallow
    }

    /// Whether the client asks for a compressed body and decodes `gzip` / `deflate`.
    public enum Decompression: Sendable, Equatable {
        /// No `Accept-Encoding` is added and the body is returned as received (a caller's own
        /// `Accept-Encoding` is sent as given, and what it brings is not decoded).
        case disabled
        /// `Accept-Encoding: gzip, deflate` unless the request sets its own, and the body decoded
        /// within `limit` (and within `maximumResponseSize`): past it the request fails with
        /// `HTTPClientError.decompressionLimitExceeded`.
        case enabled(limit: Limit)

        /// How far a compressed body may expand: a decompression bomb (a few kilobytes that inflate
        /// to gigabytes) stops at the limit, having never been held whole.
        public struct Limit: Sendable, Equatable {
            /// The most decoded bytes, when set.
            public var size: Int?
            /// The most decoded bytes per compressed byte, when set.
            public var ratio: Int?

            /// A limit on the decoded size, its ratio to the compressed size, both, or neither.
            public init(size: Int? = nil, ratio: Int? = nil) {
                self.size = size.map { max(0, $0) }
                self.ratio = ratio.map { max(0, $0) }
            }

            /// No limit beyond the client's `maximumResponseSize`.
            public static let none = Limit()

            /// At most `bytes` decoded bytes.
            public static func size(_ bytes: Int) -> Limit { Limit(size: bytes) }

            /// At most `ratio` decoded bytes per compressed byte.
            public static func ratio(_ ratio: Int) -> Limit { Limit(ratio: ratio) }

            /// The most decoded bytes allowed for `compressed` bytes; nil when unlimited.
            func bytes(forCompressed compressed: Int) -> Int? {
                let byRatio = ratio.map { compressed.multipliedReportingOverflow(by: $0) }.map { $0.overflow ? Int.max : $0.partialValue }
                switch (size, byRatio) {
                case (let size?, let byRatio?): return min(size, byRatio)
                case (let size?, nil): return size
                case (nil, let byRatio?): return byRatio
                case (nil, nil): return nil
                }
            }
        }
    }
}

extension HTTPClientRequest {
    /// The most redirects this request follows under `configuration`; nil follows none.
    func redirectLimit(_ configuration: HTTPClient.Configuration) -> Int? {
        switch redirects {
        case .follow(let max)?: Swift.max(0, max)
        case .disallow?: nil
        case nil: configuration.maximumRedirects
        }
    }

    /// The instant this request must be done by under `configuration`, for a request sent at
    /// `start`: its own `deadline`, else the client's overall deadline from `start`, else none.
    func overallDeadline(_ configuration: HTTPClient.Configuration, from start: MonotonicTime) -> MonotonicTime? {
        deadlineMoment ?? configuration.overallDeadline.map { start + $0 }
    }

    /// Whether the request asks for a compressed body (the client decodes it).
    var asksForCompression: Bool { decompression != .disabled }
}
