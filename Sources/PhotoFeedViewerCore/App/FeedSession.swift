import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import PhotoFeed
import Reactive

/// The provider, plugins, store (and for `--demo`, the in-process server) that the options ask for.
package final class FeedSession: Sendable {
    /// The store the viewer shows.
    package let store: PhotoFeedStore
    /// Counts requests in flight for the spinner.
    package let activity: NetworkActivityPlugin
    /// Loads the photos' thumbnails (`nil` offline, where nothing may touch the network).
    package let thumbnails: ThumbnailLoader?
    /// The server started for `--demo`.
    package let server: FeedServer?
    /// A short name of where the feed comes from, e.g. `demo 127.0.0.1:49152`.
    package let sourceLabel: String
    /// `host:port` of the feed server, for error messages; `nil` offline.
    package let host: String?

    /// Builds the session; `onActivity` is called whenever a request starts or ends, `log`
    /// receives the logger's lines with `--verbose`. Throws when the demo server cannot start.
    package init(
        options: ViewerOptions,
        onActivity: @escaping @Sendable () -> Void = {},
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        let activity = NetworkActivityPlugin { _, _ in onActivity() }
        var plugins: [any PluginType] = [activity]
        if options.verbose {
            plugins.append(NetworkLoggerPlugin(configuration: .init(output: { _, lines in lines.forEach(log) },
                                                                    logOptions: .verbose)))
        }

        var server: FeedServer?
        let baseURL: URL?
        switch options.source {
        case .flickr:
            baseURL = nil
        case .offline:
            baseURL = nil
        case .demo:
            let started = try FeedServer(configuration: .init(feedLatency: .milliseconds(150), tls: options.tls ? Self.demoServerTLS : nil))
            server = started
            baseURL = started.baseURL
        case .baseURL(let url):
            baseURL = url
        }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.timeout.timeInterval
        // The feed and the pictures each get their own pool, with the same limits; `--demo --tls`
        // trusts the test CA that signed the demo server's certificate, and nothing else.
        let tls = options.tls ? TLSConfiguration(trustRoots: .pem(DemoCertificate.authority)) : TLSConfiguration()
        // The demo's server runs in this process on loopback: never through the environment's proxy.
        let proxy: SocketTransport.Configuration.Proxy = options.source == .demo ? .none : .environment()
        func transport() -> DefaultTransport {
            DefaultTransport(
                socketTransport: SocketTransport(configuration: .init(idleTimeout: options.timeout,
                                                                      overallDeadline: options.timeout + .seconds(1), tls: tls,
                                                                      proxy: proxy)),
                urlSessionTransport: URLSessionTransport(configuration: configuration,
                                                         overallDeadline: options.timeout + .seconds(1))
            )
        }
        let provider = NetworkProvider<FlickrAPI>(
            endpointClosure: baseURL.map { FlickrAPI.endpointClosure(baseURL: $0) } ?? NetworkProvider.defaultEndpointMapping,
            stubClosure: options.source == .offline ? NetworkProvider.immediatelyStub : NetworkProvider.neverStub,
            transport: transport(),
            plugins: plugins,
            scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
            requestTimeout: options.timeout
        )

        self.store = PhotoFeedStore(provider: provider)
        if options.source == .offline {
            thumbnails = nil
        } else {
            let images = NetworkProvider<PhotoImage>(
                transport: transport(),
                trackInflights: true,
                scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
                requestTimeout: options.timeout
            )
            thumbnails = ThumbnailLoader(provider: images, memoryLimit: 16 * 1_048_576)
        }
        self.activity = activity
        self.server = server
        let effectiveURL = baseURL ?? FlickrAPI.defaultBaseURL
        let hostPort = effectiveURL.host.map { host in effectiveURL.port.map { "\(host):\($0)" } ?? host }
        switch options.source {
        case .flickr: sourceLabel = "flickr"
        case .offline: sourceLabel = "offline sample"
        case .demo: sourceLabel = "demo \(hostPort ?? "")"
        case .baseURL: sourceLabel = hostPort ?? effectiveURL.absoluteString
        }
        host = options.source == .offline ? nil : hostPort
    }

    /// For `--demo`, what `--json` and `--plain` mark each photo with: its links are on the demo server, which
    /// lives only as long as this process; `nil` for any other source.
    package var localNote: String? {
        server.map { "demo server \($0.baseURL.host ?? "127.0.0.1"):\($0.port), gone once photo-feed exits" }
    }

    /// What the demo server serves with `--tls`: the test certificate for `localhost` and its key.
    private static let demoServerTLS = TLSServerConfiguration(certificateChain: .pem(DemoCertificate.certificate),
                                                              privateKey: .pem(DemoCertificate.privateKey))

    /// Stops the demo server, if any.
    package func stop() {
        server?.stop()
    }
}
