import Dispatch
import EventLoopIO

/// The server's listening socket, watched on one event loop: takes each waiting connection and
/// hands it to the server, which admits it on a loop of its group or refuses it.
///
/// Everything but `closeOnLoop()` runs on `loop`'s thread (checked in debug builds). While it
/// listens it holds the server, so a started server runs until `stop()`.
final class Listener: EventLoopHandler, @unchecked Sendable {
    // @unchecked: `server`, `closed` and `retry` are touched only on `loop`'s thread (checked in
    // debug builds); the `let`s are immutable and Sendable.
    let socket: TCPSocket
    let loop: EventLoop
    /// The server's open sockets, which this leaves once closed.
    private let live: DispatchGroup
    private var server: FeedServer?
    private var closed = false
    private var retry: Scheduled?

    /// The most connections taken in one turn of the loop, so that one busy listener does not
    /// keep the loop from its other sockets.
    static let acceptsPerTurn = 64
    /// How long the listener rests after `accept` failed (the process out of descriptors, most
    /// often) before it tries again.
    static let retryDelay: Duration = .milliseconds(10)

    /// A listener on `loop` that leaves `live` (entered for it) once closed.
    init(socket: TCPSocket, loop: EventLoop, live: DispatchGroup) {
        self.socket = socket
        self.loop = loop
        self.live = live
    }

    /// Starts watching for connections for `server` (nothing when it was closed first).
    func start(serving server: FeedServer) {
        loop.assertInLoop()
        guard !closed else { return }
        self.server = server
        watch()
    }

    /// Closes the listener on its loop: at once when called there, else soon. Callable from any thread.
    func closeOnLoop() {
        loop.runOnLoop { [self] in close() }
    }

    func socketReadable() {
        loop.assertInLoop()
        for _ in 0..<Self.acceptsPerTurn {
            guard !closed, let server else { return }
            switch socket.accept() {
            case .connection(let client):
                server.admit(client)
            case .none:
                return
            case .failed:
                // The connection stays queued: watching would report it again at once.
                loop.deregister(socket)
                watchLater()
                return
            }
        }
    }

    /// Never asked for: a listener is watched for readability only.
    func socketWritable() {
        loop.assertInLoop()
    }

    private func watch() {
        guard !closed else { return }
        if loop.register(socket, readable: true, writable: false, handler: self) != 0 {
            watchLater()
        }
    }

    private func watchLater() {
        retry = loop.schedule(in: Self.retryDelay) { [self] in
            retry = nil
            watch()
        }
    }

    /// Stops listening (once) and lets go of the server.
    private func close() {
        loop.assertInLoop()
        guard !closed else { return }
        closed = true
        retry?.cancel()
        retry = nil
        server = nil
        loop.deregister(socket)
        socket.close()
        live.leave()
    }
}
