import EventLoopIO
import Foundation
import SystemTLS

extension FeedServer {
    /// Settings of a `FeedServer`; every field has a default.
    public struct Configuration: Sendable {
        /// The port to listen on; 0 lets the kernel pick a free one.
        public var port: UInt16 = 0
        /// The largest request head accepted; larger ones get 431.
        public var maxHeaderBytes = 16_384
        /// The largest request body accepted; larger ones get 413.
        public var maxBodyBytes = 1_048_576
        /// The most connections open at once; more are answered 503 and closed (over TLS, closed).
        public var maxConnections = 256
        /// The seed of the generated feeds and of the fault draws.
        public var seed: UInt64 = 1
        /// A delay before every feed response.
        public var feedLatency: Duration = .zero
        /// The probability (0...1) that a feed request fails with 503 and a JSON body.
        public var feedFaultRate: Double = 0
        /// When set, the feed route serves exactly these bytes.
        public var feedOverride: Data? = nil
        /// Items on each generated feed page.
        public var itemsPerPage = 20
        /// How long a kept-alive connection may sit idle between requests before the server closes it.
        public var idleTimeout: Duration = .seconds(60)
        /// How long one write may wait for a client that does not read.
        public var writeTimeout: Duration = .seconds(30)
        /// The event loops the server accepts and serves on; nil: `EventLoopGroup.shared`, which
        /// the clients share too. A benchmark gives the server a group of its own, so that the
        /// server's work does not run on the loops of the client it measures.
        public var eventLoopGroup: EventLoopGroup? = nil
        /// The certificate chain and key to serve TLS with (`SystemTLS`, the system's OpenSSL);
        /// nil, the default: plain HTTP. With TLS, `baseURL` is `https://localhost:PORT/`, so the
        /// certificate must name `localhost`; a connection beyond `maxConnections` is closed
        /// without an answer.
        ///
        /// ```swift
        /// var configuration = FeedServer.Configuration()
        /// configuration.tls = TLSServerConfiguration(certificateChain: .pemFile(certificate), privateKey: .pemFile(key))
        /// ```
        public var tls: TLSServerConfiguration? = nil
        /// When set, the server listens on a Unix domain socket at this path (a file left there
        /// is replaced; `stop()` removes it) instead of 127.0.0.1 and `port`: `baseURL` is then
        /// `http+unix://` with the path percent-encoded as the host.
        public var unixSocketPath: String? = nil

        /// Creates a configuration; pass only what differs from the defaults.
        public init(
            port: UInt16 = 0,
            maxHeaderBytes: Int = 16_384,
            maxBodyBytes: Int = 1_048_576,
            maxConnections: Int = 256,
            seed: UInt64 = 1,
            feedLatency: Duration = .zero,
            feedFaultRate: Double = 0,
            feedOverride: Data? = nil,
            itemsPerPage: Int = 20,
            idleTimeout: Duration = .seconds(60),
            writeTimeout: Duration = .seconds(30),
            eventLoopGroup: EventLoopGroup? = nil,
            tls: TLSServerConfiguration? = nil,
            unixSocketPath: String? = nil
        ) {
            self.port = port
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
            self.maxConnections = maxConnections
            self.seed = seed
            self.feedLatency = feedLatency
            self.feedFaultRate = feedFaultRate
            self.feedOverride = feedOverride
            self.itemsPerPage = itemsPerPage
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.eventLoopGroup = eventLoopGroup
            self.tls = tls
            self.unixSocketPath = unixSocketPath
        }
    }
}

/// The name `../shared/DESIGN.md` gives the server's settings (`FeedServerConfiguration.tls`).
public typealias FeedServerConfiguration = FeedServer.Configuration
