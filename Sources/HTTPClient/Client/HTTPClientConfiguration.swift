import SystemTLS

extension HTTPClient {
    /// Settings of an `HTTPClient` (and of `SocketTransport`, which runs on one); every field has a default.
    public struct Configuration: Sendable {
        /// The most connections open at once to one host and port; more requests wait for one.
        public var maximumConnectionsPerHost: Int
        /// How long opening a connection may take: the name lookup and the attempts to every
        /// resolved address (and as long again for an `https` connection's handshake). A request
        /// waiting for a connection (the pool opening one, or all in use) fails after this long
        /// too, unless `overallDeadline` bounds it; a connect under way goes on for the next request.
        public var connectTimeout: Duration
        /// How long a read or write may wait for the peer; a request's `idleTimeout` replaces it
        /// (`SocketTransport` sets it from a `timeoutInterval` other than `URLRequest`'s default 60 s).
        public var idleTimeout: Duration
        /// The deadline for a whole exchange (waiting for a connection, redirects included), if any.
        public var overallDeadline: Duration?
        /// The largest response head (status line and fields) accepted, in bytes: 300 KB by
        /// default, the limit of the libcurl under FoundationNetworking's URLSession.
        public var maximumHeaderBytes: Int
        /// The largest response body accepted, in bytes.
        public var maximumResponseSize: Int
        /// The most redirects followed for one request (URLSession's 20); one more fails with
        /// `HTTPClientError.tooManyRedirects`.
        public var maximumRedirects: Int
        /// How long a kept-alive connection may wait in the pool unused before it is closed (so
        /// that connections follow a load balancer's or a DNS change), 60 s by default.
        public var idleConnectionTimeout: Duration
        /// How many event loops (one thread each) the client runs on: nil shares the process's
        /// loops, one per processor; a number gives the client loops of its own, stopped when the
        /// client and its last exchange are gone.
        public var eventLoopCount: Int?
        /// How `https` connections are verified: by default against the system's trust store
        /// (honouring `SSL_CERT_FILE` and `SSL_CERT_DIR`), the chain, its dates and the host name,
        /// TLS 1.2 at least, as curl verifies.
        ///
        /// ```swift
        /// var configuration = HTTPClient.Configuration()
        /// configuration.tls = TLSConfiguration(trustRoots: .pemFile("/etc/my-ca.pem"))
        /// ```
        public var tls: TLSConfiguration
        /// The HTTP proxy requests go through: by default the environment's, read as curl reads
        /// it when the configuration is made (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy`).
        public var proxy: Proxy
        /// Whether plain `http` requests through a proxy go through a `CONNECT` tunnel to their
        /// origin (pooled per proxy and origin), as curl's `--proxytunnel` and as AsyncHTTPClient
        /// always does, instead of in absolute form on connections to the proxy (false, as curl
        /// and URLSession by default). For a proxy that closes each connection after the answer
        /// it forwarded, or one that should not see the requests; the proxy must allow `CONNECT`
        /// to the origin's port (many allow only 443), else the request fails with
        /// `HTTPClientError.proxyRefused`.
        public var tunnelsPlainHTTPThroughProxy: Bool

        /// Creates a configuration; pass only what differs from the defaults.
        public init(maximumConnectionsPerHost: Int = 8,
                    connectTimeout: Duration = .seconds(10),
                    idleTimeout: Duration = .seconds(60),
                    overallDeadline: Duration? = nil,
                    maximumHeaderBytes: Int = 300 * 1024,
                    maximumResponseSize: Int = 50 * 1024 * 1024,
                    maximumRedirects: Int = 20,
                    idleConnectionTimeout: Duration = .seconds(60),
                    eventLoopCount: Int? = nil,
                    tls: TLSConfiguration = TLSConfiguration(),
                    proxy: Proxy = .environment(),
                    tunnelsPlainHTTPThroughProxy: Bool = false) {
            self.maximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
            self.overallDeadline = overallDeadline
            self.maximumHeaderBytes = max(256, maximumHeaderBytes)
            self.maximumResponseSize = max(0, maximumResponseSize)
            self.maximumRedirects = max(0, maximumRedirects)
            self.idleConnectionTimeout = idleConnectionTimeout
            self.eventLoopCount = eventLoopCount.map { max(1, $0) }
            self.tls = tls
            self.proxy = proxy
            self.tunnelsPlainHTTPThroughProxy = tunnelsPlainHTTPThroughProxy
        }
    }
}
