import EventLoopIO
import SystemTLS

/// One open connection, on one loop for its whole life: its `channel` (EventLoopIO's byte side:
/// the socket, for `https` the TLS machine once secured, the bytes queued that the socket has
/// not taken yet (while it waits in the pool too), read interest, one timer and the one close
/// path), the pool's number for it and its host. Its owner changes (the opener's tunnel, the
/// request using it, its pool's watcher), each taking the channel over (`Channel.handOver(to:)`);
/// requests come to its loop to use it (`SocketExchange` moves there); it never moves.
final class Connection: @unchecked Sendable {
    // @unchecked: `handshake`, `sessionKept`, `readBuffer`, `outputBuffer`, `relay` and the
    // timings' instants are touched only on `loop`'s thread (the exchange using the connection
    // runs there, and so does its parked watcher); the `let`s are immutable and Sendable.
    let channel: Channel
    /// The host it is open to, and its number in that host's pool.
    let key: ConnectionPoolKey
    let id: Int
    /// What its TLS handshake agreed on, once completed (for timings).
    var handshake: TLSHandshake?
    /// Whether the pool has this connection's TLS session for the host's next new connection.
    var sessionKept = false
    /// When its opener knew the host's addresses and when its connect completed (for timings).
    var resolvedAt: MonotonicTime?
    var connectedAt: MonotonicTime?
    /// When its TLS handshake completed (for timings; nil for `http`).
    var securedAt: MonotonicTime?
    /// The address it connected to, as text (made once, when it connected).
    var remoteAddress: String?
    /// Its opener's Happy Eyeballs attempts, for timings.
    var connectAttempts: [HTTPClientTimings.ConnectAttempt] = []
    /// The buffer its last request read the socket into, kept while it waits in the pool so
    /// that the next request reads into it instead of making its own (empty: none kept).
    var readBuffer: [UInt8] = []
    /// The buffer its last request's head was written from, kept likewise for the next head.
    var outputBuffer: [UInt8] = []

    /// The channel's owner for the requests using it (made on first use).
    private var relay: RequestRelay?

    init(socket: TCPSocket, loop: EventLoop, key: ConnectionPoolKey, id: Int) {
        self.channel = Channel(socket: socket, loop: loop)
        self.key = key
        self.id = id
    }

    /// The connection's socket (the channel's).
    var socket: TCPSocket { channel.socket }

    /// The loop the connection was opened on, where everything about it happens.
    var loop: EventLoop { channel.loop }

    /// The TLS connection on the socket (the channel's, set once by its opener's
    /// `ConnectionHandshake`, which secures it before any request gets it); nil for `http`.
    var tls: TLSMachine? { channel.tls?.machine }

    /// Queues `bytes` behind those waiting, sealed by the channel's TLS when it has one (to an
    /// HTTPS proxy), and writes what the socket takes now (the channel then watches for room
    /// while some wait); throws when TLS failed (its alert queued).
    func write(_ bytes: [UInt8]) throws(TLSFailure) -> Channel.Flush {
        loop.assertInLoop()
        if channel.tls == nil {
            channel.queue(bytes[...])
        } else if let failure = channel.seal(bytes[...]) {
            throw failure
        }
        return channel.flush()
    }

    /// Gives the channel to `exchange`, through the connection's `RequestRelay`, which holds it
    /// until it lets go (`letGo(of:)`) or the connection closes.
    func useFor(_ exchange: SocketExchange) {
        loop.assertInLoop()
        let relay = relay ?? RequestRelay()
        self.relay = relay
        relay.exchange = exchange
        channel.handOver(to: relay)
    }

    /// `exchange` let go of the connection: the relay no longer holds it (nor passes it events).
    func letGo(of exchange: SocketExchange) {
        loop.assertInLoop()
        if relay?.exchange === exchange { relay?.exchange = nil }
    }

    /// Ends the connection on its loop, the one way every owner closes it (the channel's close
    /// path: its queue flushed as far as the socket takes it now, `close_notify` when secured,
    /// unwatched, closed).
    func close() {
        loop.assertInLoop()
        relay?.exchange = nil
        channel.close()
    }
}
