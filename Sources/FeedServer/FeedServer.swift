import Dispatch
import Foundation
import HTTPWire
import EventLoopIO
import Locking
import SystemTLS
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 serving Flickr-shaped feeds and fault routes, for
/// tests, benchmarks and the `photo-feed --demo` viewer; over TLS when its configuration gives
/// a certificate and key (`Configuration.tls`).
///
/// It runs on event loops, non-blocking and with no thread of its own: the listener on one loop
/// of its group (`EventLoopGroup.shared` unless `Configuration.eventLoopGroup` names one), each
/// connection on the group's next loop, where everything about it happens.
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
/// `/bytes/{n}`, `/drip`, `/garbage`, `/cut-headers`, `/cut-record`, `/wrong-length`,
/// `/until-close/{n}[/{sent}]`, `/chunked`, `/flaky`; anything else is a 404 with a JSON body. A
/// method no route implements (`/echo` takes any) is a 501, and so is `CONNECT`; `OPTIONS *`
/// answers 200 with `Allow`. Every answer carries `Date`; a `HEAD` gets the fields its `GET`
/// would. The server runs until `stop()`.
///
/// Over TLS (the system's OpenSSL, through `SystemTLS`) each connection's loop runs the
/// handshake, the records both ways and a `close_notify` when the server closes; a failed
/// handshake ends the connection. The fault routes that cut a connection (`/half`,
/// `/cut-headers`, `/cut-record`, `/until-close/{n}/{sent}`) close without `close_notify`, as a server that went away would:
///
/// ```swift
/// let tls = TLSServerConfiguration(certificateChain: .pemFile("localhost.pem"), privateKey: .pemFile("localhost.key"))
/// let server = try FeedServer(configuration: .init(tls: tls))      // baseURL: https://localhost:PORT/
/// ```
public final class FeedServer: Sendable {
    /// The settings the server was started with.
    public let configuration: Configuration
    /// The port the server listens on.
    public let port: UInt16
    /// The TLS context every connection's handshake uses (nil: plain HTTP).
    let tlsContext: TLSServerContext?
    let state: Lock<ServerState>
    /// Set with `state.stopping`, readable without the lock.
    private let stopped = Atomic<Bool>(false)
    private let handshakes = Atomic<Int>(0)
    private let resumedHandshakes = Atomic<Int>(0)
    let counts = RequestTally()
    let generator: FeedGenerator
    private let group: EventLoopGroup
    private let listener: Listener
    /// Entered for the listener and for each admitted connection, left as each closes: what
    /// `stop()` waits for.
    private let live: DispatchGroup

    /// Binds 127.0.0.1 at `configuration.port` (by default 0: a free port the kernel picks; read
    /// it back from `port` or `baseURL`) and starts serving at once, on an event loop: the
    /// listening socket is made on the loop it lives on, while the caller waits. Throws the
    /// socket's error when the port cannot be bound, and with `configuration.tls` a
    /// `TLSFailure` (`.unavailable`, `.invalidConfiguration`) when no OpenSSL loads or the certificate and key cannot be used. Call
    /// `stop()` when done (a test's `defer` or `tearDown`).
    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        tlsContext = try configuration.tls.map { tls throws(TLSFailure) in try TLSServerContext(configuration: tls) }
        // Without the shared loops (the system refused their pollers), a loop of the server's
        // own, or the system's reason why not.
        let group = try configuration.eventLoopGroup ?? EventLoopGroup.shared ?? EventLoopGroup(count: 1, label: "FeedServer")
        // The listener lives on one loop from its first system call: the caller's own when it
        // runs on one of the group's (made there in place), else the next, while the caller waits.
        let loop = group.loops.first { $0.inLoop } ?? group.nextLoop()
        let requestedPort = configuration.port
        let unixPath = configuration.unixSocketPath
        let (socket, port) = try loop.runOnLoopAndWait { () throws(SocketError) -> (TCPSocket, UInt16) in
            if let unixPath { return (try TCPSocket.listen(unixPath: unixPath), 0) }
            let socket = try TCPSocket.listen(host: "127.0.0.1", port: requestedPort)
            do throws(SocketError) {
                return (socket, try socket.localPort())
            } catch {
                socket.close()
                throw error
            }
        }
        self.port = port
        let live = DispatchGroup()
        live.enter()
        let listener = Listener(socket: socket, loop: loop, live: live)
        self.group = group
        self.live = live
        self.listener = listener
        self.state = Lock(ServerState(seed: configuration.seed))
        self.generator = FeedGenerator(seed: configuration.seed, itemsPerPage: configuration.itemsPerPage)
        listener.loop.runOnLoop { [self] in listener.start(serving: self) }
    }

    /// `http://127.0.0.1:PORT/`, or over TLS `https://localhost:PORT/` (the name a certificate
    /// for this machine carries, which a client verifies; the fixtures' names `localhost` and
    /// 127.0.0.1 both), or `http+unix://PATH/` on a Unix domain socket (the path percent-encoded):
    /// give it to `FlickrAPI.endpointClosure(baseURL:)`, or append a route's path.
    public var baseURL: URL {
        var text = tlsContext == nil ? "http://127.0.0.1:\(port)/" : "https://localhost:\(port)/"
        if let path = configuration.unixSocketPath {
            text = "http+unix://\(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path)/"
        }
        // Built from a literal and a port number, so it always parses; if it ever did not, stop
        // here rather than send requests to `file:///`.
        guard let url = URL(string: text) else { preconditionFailure("not a URL: \(text)") }
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

    /// TLS handshakes completed, resumed ones included (0 without TLS).
    public var tlsHandshakeCount: Int { handshakes.load(ordering: .relaxed) }

    /// TLS handshakes that resumed a client's earlier session (abbreviated: no certificate sent).
    public var resumedTLSHandshakeCount: Int { resumedHandshakes.load(ordering: .relaxed) }

    /// Whether `stop()` has been called.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Closes the listener and every open connection, each on its loop. Off the event loops it
    /// returns once they are closed (waiting 15 seconds at most), so the port is free again when
    /// it returns. On an event loop's thread it never waits (a loop must not stall behind
    /// another): what lives on the caller's loop is closed in place, the rest soon after on
    /// theirs. Idempotent; callable from any thread.
    public func stop() {
        let open = state.withLock { state in
            state.stopping = true
            stopped.store(true, ordering: .releasing)
            return Array(state.open.values)
        }
        listener.closeOnLoop()
        for connection in open {
            connection.closeOnLoop()
        }
        // The path goes at once: nothing new reaches the listener that is closing.
        if let path = configuration.unixSocketPath { TCPSocket.removeUnixSocketFile(path) }
        guard !EventLoop.isOnAnyLoopThread else { return }
        _ = live.wait(timeout: .now() + .seconds(15))
    }

    /// What became of a connection the listener took.
    private enum Admission {
        case admitted(Connection)
        case refused
        case stopping
    }

    /// Serves `client` on the group's next loop, or refuses it (503) beyond `maxConnections`, or
    /// closes it when the server is stopping. On the listener's loop.
    func admit(_ client: TCPSocket) {
        let loop = group.nextLoop()
        let admission = state.withLock { state -> Admission in
            guard !state.stopping else { return .stopping }
            state.connectionCount += 1
            guard state.open.count < configuration.maxConnections else { return .refused }
            let connection = Connection(server: self, socket: client, loop: loop, number: state.connectionCount)
            state.open[client] = connection
            live.enter()
            return .admitted(connection)
        }
        switch admission {
        case .admitted(let connection):
            loop.runOnLoop { connection.start() }
        case .refused:
            // One write: a new connection's empty send buffer takes these few bytes whole. Over
            // TLS the answer would need a handshake first: the connection closes without one.
            if tlsContext == nil { _ = Self.refusal.withUnsafeBytes { client.sendSome($0) } }
            client.close()
        case .stopping:
            client.close()
        }
    }

    /// The answer to a connection beyond `maxConnections`.
    private static var refusal: [UInt8] {
        Responses.json(status: 503, code: "E503", message: "Too many connections", keepAlive: false).serialized()
    }

    /// Forgets a connection that closed (on its loop).
    func connectionClosed(_ connection: Connection) {
        state.withLock { _ = $0.open.removeValue(forKey: connection.socket) }
        live.leave()
    }

    /// Counts a request whose head was parsed on the connection numbered `connection`.
    func record(_ head: HTTPRequestHead, connection: Int) {
        counts.record(path: head.path, connection: connection)
    }

    /// Counts a TLS handshake that completed (on a connection's loop).
    func countHandshake(_ handshake: TLSHandshake) {
        handshakes.add(1, ordering: .relaxed)
        if handshake.resumedSession { resumedHandshakes.add(1, ordering: .relaxed) }
    }

    /// Counts a slow picture whose client closed before the answer.
    func countAbandonedImage() {
        state.withLock { $0.abandonedImages += 1 }
    }
}
