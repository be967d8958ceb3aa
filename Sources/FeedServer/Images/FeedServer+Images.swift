extension FeedServer {
    /// The URL of the demo picture for the media file `name`: `http://127.0.0.1:PORT/images/name`
    /// (below `baseURL`, so `https://localhost:PORT/images/name` over TLS).
    public func imageURL(named name: String) -> String {
        "\(baseURL.absoluteString)\(ImageRoute.prefix)/\(name)"
    }

    /// Requests whose head was parsed below `/images/`, faults included.
    public var imageRequestCount: Int {
        counts.count { $0.hasPrefix("/\(ImageRoute.prefix)/") }
    }

    /// Slow pictures (`/images/slow/...`) whose client closed the connection before the answer.
    public var abandonedImageCount: Int {
        state.withLock { $0.abandonedImages }
    }
}
