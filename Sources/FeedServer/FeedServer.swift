import Dispatch
import Foundation
import HTTPWire
import SocketIO
import Locking
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 serving Flickr-shaped feeds and fault routes, for
/// tests, benchmarks and the `photo-feed --demo` viewer.
///
/// In your own tests, start one on a free port and point a provider at it:
///
/// ```swift
/// func testTheFeedPipelineAgainstALocalServer() async throws {
///     let server = try FeedServer(configuration: .init(itemsPerPage: 5))   // port 0: a free one
///     defer { server.stop() }
///     let provider = NetworkProvider<FlickrAPI>(endpointClosure: FlickrAPI.endpointClosure(baseURL: server.baseURL))
///     let photo = try Photo.decode(feed: try await provider.request(.publicPhotos(PhotoRequest())).data)
///     XCTAssertEqual(photo.items.count, 5)
/// }
/// ```
///
/// Routes: `/services/feeds/photos_public.gne` (a new generated page each time; see
/// `Configuration` for latency, faults and fixed bytes), `/photos/{author}/{id}/` (each
/// generated photo's page, where its `link` points), `/images/...` (demo JPEGs and their
/// faults), `/echo`, `/status/{code}`, `/delay/{ms}`, `/hang`, `/drop`, `/reset`, `/half`,
/// `/bytes/{n}`, `/drip`, `/garbage`, `/cut-headers`, `/wrong-length`, `/chunked`, `/flaky`;
/// anything else is a 404 with a JSON body. The server runs until `stop()`.
public final class FeedServer: Sendable {
    /// The settings the server was started with.
    public let configuration: Configuration
    /// The port the server listens on.
    public let port: UInt16
    let listener: TCPSocket
    let state: Lock<ServerState>
    /// Set with `state.stopping`, read without the lock: every connection checks it per request.
    private let stopped = Atomic<Bool>(false)
    let counts = RequestTally()
    let generator: FeedGenerator
    private let threads = DispatchGroup()

    /// Binds 127.0.0.1 at `configuration.port` (by default 0: a free port the kernel picks; read
    /// it back from `port` or `baseURL`) and starts serving at once. Throws the socket's error when
    /// the port cannot be bound. Call `stop()` when done (a test's `defer` or `tearDown`).
    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        let listener = try TCPSocket.listen(host: "127.0.0.1", port: configuration.port)
        do {
            self.port = try listener.localPort()
        } catch {
            listener.close()
            throw error
        }
        self.listener = listener
        self.state = Lock(ServerState(seed: configuration.seed))
        self.generator = FeedGenerator(seed: configuration.seed, itemsPerPage: configuration.itemsPerPage)
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = "FeedServer.accept"
        thread.start()
    }

    /// `http://127.0.0.1:PORT/`: give it to `FlickrAPI.endpointClosure(baseURL:)`, or append a
    /// route's path.
    public var baseURL: URL {
        // Built from a literal and a port number, so it always parses; if it ever did not, stop
        // here rather than send requests to `file:///`.
        guard let url = URL(string: "http://127.0.0.1:\(port)/") else { preconditionFailure("not a URL: http://127.0.0.1:\(port)/") }
        return url
    }

    /// Requests whose head was parsed, on every route.
    public var requestCount: Int { counts.total }

    /// Requests whose head was parsed for `path` (without the query).
    public func requestCount(path: String) -> Int {
        counts.count(path: path)
    }

    /// Connections accepted so far, including those refused for exceeding `maxConnections`.
    public var connectionCount: Int { state.withLock { $0.connectionCount } }

    /// Connections open right now.
    public var openConnectionCount: Int { state.withLock { $0.open.count } }

    /// Whether `stop()` has been called.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Closes the listener and every open connection, and waits for the server's work to end, so
    /// the port is free again when it returns. Idempotent; safe to call from any thread.
    public func stop() {
        state.withLock { state in
            state.stopping = true
            stopped.store(true, ordering: .releasing)
            for descriptor in state.open {
                TCPSocket(descriptor: descriptor).shutdown()
            }
        }
        listener.shutdown()
        _ = threads.wait(timeout: .now() + .seconds(15))
        let closeListener = state.withLock { state in
            defer { state.listenerClosed = true }
            return !state.listenerClosed
        }
        if closeListener { listener.close() }
    }

    private func acceptLoop() {
        while !isStopped {
            let client: TCPSocket?
            do {
                client = try listener.accept(timeout: .milliseconds(200))
            } catch {
                if isStopped { return }
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            guard let client else { continue }
            let admission = state.withLock { state -> Bool? in
                if state.stopping { return nil }
                state.connectionCount += 1
                guard state.open.count < configuration.maxConnections else { return false }
                state.open.insert(client.descriptor)
                return true
            }
            switch admission {
            case nil:
                client.close()
                return
            case false?:
                refuse(client)
            case true?:
                client.setNoDelay()
                threads.enter()
                let thread = Thread { [self] in
                    var connection = Connection(server: self, socket: client)
                    connection.serve()
                    state.withLock { _ = $0.open.remove(client.descriptor) }
                    client.close()
                    threads.leave()
                }
                thread.name = "FeedServer.connection"
                thread.start()
            }
        }
    }

    private func refuse(_ client: TCPSocket) {
        let response = Responses.json(status: 503, code: "E503", message: "Too many connections", keepAlive: false)
        try? client.write(response.serialized(), timeout: .seconds(1))
        client.close()
    }

    /// Sleeps up to `duration` in short slices; false when the server began stopping meanwhile.
    func sleep(_ duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            if isStopped { return false }
            let remaining = ContinuousClock.now.duration(to: deadline)
            Thread.sleep(forTimeInterval: min(0.01, Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18))
        }
        return !isStopped
    }

    func record(_ head: HTTPRequestHead, connection: TCPSocket) {
        counts.record(path: head.path, connection: connection.descriptor)
    }
}
