import Dispatch
import EventLoopIO
import SystemTLS

/// Opens one connection for a host's waiting requests, on one loop, performing `ConnectAttempts`'
/// steps within the connect timeout: the lookup off the loop, then one socket per attempt (Happy
/// Eyeballs), each watched by an `AttemptWatcher`, then, through an HTTPS proxy, the TLS
/// handshake with the proxy, then, for a key that tunnels through a proxy, the tunnel's
/// negotiation (`ProxyTunnel`: `CONNECT`, or SOCKS's), then, for `https`, the TLS handshake
/// with the origin (`ConnectionHandshake`; inside the proxy's TLS through an HTTPS proxy).
/// It belongs to the pool, not to a request: a request that gives up (mid-handshake too) leaves
/// it running, and it reports to the pool, which hands the secured connection to whoever waits
/// first then (or parks it), or fails the first waiter.
final class ConnectionOpener: @unchecked Sendable {
    // @unchecked: everything but the `let`s is touched only on `loop`'s thread (checked in debug
    // builds); the lookup's result comes back to the loop in a task.
    let id: Int
    let key: ConnectionPoolKey
    let loop: EventLoop
    private let pool: ConnectionPool
    private let resolver: HostResolver
    private let timeout: Duration
    private var attempts = ConnectAttempts()
    /// The sockets of the attempts under way, by attempt index (their objects; which are pending
    /// is `attempts`' to say).
    private var sockets: [Int: TCPSocket] = [:]
    private var connectTimer: Scheduled?
    /// When the first attempt started: the addresses were known (for the requests' timings).
    private var resolvedAt: MonotonicTime?
    private var staggerTimer: Scheduled?
    /// The tunnel's negotiation under way on the connected socket of a key that tunnels through a proxy.
    private var tunnel: ProxyTunnel?
    /// The TLS handshake under way on the connection of an `https` key.
    private var handshake: ConnectionHandshake?
    /// Bounds a `socks5://` tunnel's lookup of its origin (the connect's own timer has stopped);
    /// nil when no lookup is under way, or once it fired (the lookup's end is then dropped).
    private var originLookupTimer: Scheduled?

    init(id: Int, key: ConnectionPoolKey, loop: EventLoop, pool: ConnectionPool, resolver: HostResolver, timeout: Duration) {
        self.id = id
        self.key = key
        self.loop = loop
        self.pool = pool
        self.resolver = resolver
        self.timeout = timeout
    }

    /// Arms the connect timer and starts with the host read as a literal (or looked up).
    func start() {
        loop.assertInLoop()
        connectTimer = loop.schedule(in: timeout) { [self] in
            connectTimer = nil
            run(attempts.timerFired())
        }
        run(attempts.begin(literal: key.unix ? [(try? SocketAddress.unix(path: key.host))].compactMap { $0 }
                                              : resolver.literal(key.connectHost, key.connectPort)))
    }

    private func run(_ action: ConnectAttempts.Action) {
        loop.assertInLoop()
        switch action {
        case .none:
            break
        case .resolve:
            let (loop, lookUp, key) = (self.loop, resolver.lookUp, self.key)
            DispatchQueue.global().async { [self] in
                let result = Result { () throws(SocketError) -> [SocketAddress] in try lookUp(key.connectHost, key.connectPort) }
                loop.execute { self.run(self.attempts.resolved(result)) }
            }
        case .start(let address, let index):
            if resolvedAt == nil { resolvedAt = .now }
            do throws(SocketError) {
                let (opened, inProgress) = try TCPSocket.startConnect(to: address)
                sockets[index] = opened
                run(attempts.started(index: index, inProgress: inProgress))
            } catch {
                run(attempts.startFailed(index: index, errno: error.systemErrno))
            }
        case .await(let index, let staggerNext):
            if let attempt = sockets[index] {
                loop.register(attempt, readable: false, writable: true, handler: AttemptWatcher(opener: self, index: index))
            }
            if staggerNext {
                staggerTimer?.cancel()
                staggerTimer = loop.schedule(in: ConnectAttempts.staggerDelay) { [self] in
                    staggerTimer = nil
                    run(attempts.staggerTimerFired())
                }
            }
        case .connected(let index):
            guard let won = sockets.removeValue(forKey: index) else {
                preconditionFailure("ConnectionOpener: attempt \(index) connected without a socket")
            }
            loop.deregister(won)
            stop()
            let connection = Connection(socket: won, loop: loop, key: key, id: id)
            connection.resolvedAt = resolvedAt
            connection.connectedAt = .now
            connection.remoteAddress = attempts.addresses.indices.contains(index) ? attempts.addresses[index].description : nil
            connection.connectAttempts = attempts.log
            proceed(on: connection)
        case .fail(let failure):
            stop()
            pool.connectFailed(self, failure)
        }
    }

    /// The steps after the connect, each once: TLS to an HTTPS proxy, the tunnel, TLS to the
    /// origin (`secure`, which hands the connection to the pool).
    private func proceed(on connection: Connection) {
        if let proxy = key.proxy, proxy.kind == .https, connection.channel.tls == nil {
            return handshake(on: connection, host: proxy.host, session: pool.session(for: key.proxySessionKey ?? key)) { [self] in
                proceed(on: connection)
            }
        }
        guard key.tunnels else { return secure(connection) }
        openTunnel(on: connection)
    }

    /// Asks the proxy `connection` is open to for a tunnel to the key's host (as long again as
    /// the connect may take): `CONNECT` to an HTTP proxy, SOCKS5's or SOCKS4's negotiation to a
    /// SOCKS one (for `socks5://` and `socks4://`, after looking the host up here, off the loop,
    /// within as long again). The connection goes on once the tunnel is open, else the connect
    /// fails.
    private func openTunnel(on connection: Connection) {
        guard let proxy = key.proxy else { preconditionFailure("ConnectionOpener: a tunnel without a proxy for \(key)") }
        switch proxy.kind {
        case .http, .https:
            negotiate(on: connection, ProxyTunnelMachine(host: key.host, port: key.port, authorization: proxy.authorization))
        case .socks5h:
            negotiate(on: connection, socks: originAddress ?? .name(key.host), proxy: proxy)
        case .socks5, .socks4:
            if let address = originAddress { return negotiate(on: connection, socks: address, proxy: proxy) }
            originLookupTimer = loop.schedule(in: timeout) { [self] in
                originLookupTimer = nil
                connection.close()
                pool.connectFailed(self, .timedOut(.connect))
            }
            let (loop, lookUp, key) = (self.loop, resolver.lookUp, self.key)
            DispatchQueue.global().async { [self] in
                let result = Result { () throws(SocketError) -> [SocketAddress] in try lookUp(key.host, key.port) }
                loop.execute { self.originResolved(result, connection: connection, proxy: proxy) }
            }
        }
    }

    /// The origin's addresses for a `socks5://` or `socks4://` tunnel: the first one the proxy's
    /// protocol carries goes to it (SOCKS4 carries IPv4 only), unless the lookup took as long as
    /// the connect may take, which failed it already.
    private func originResolved(_ result: Result<[SocketAddress], SocketError>, connection: Connection, proxy: ProxyEndpoint) {
        loop.assertInLoop()
        guard let timer = originLookupTimer else { return }
        timer.cancel()
        originLookupTimer = nil
        switch result {
        case .success(let addresses):
            let carried = addresses.lazy.compactMap(SOCKS5Machine.Destination.init).filter { proxy.kind != .socks4 || $0.isIPv4 }
            guard let destination = carried.first else {
                connection.close()
                return pool.connectFailed(self, .cannotConnect(errno: EHOSTUNREACH))
            }
            negotiate(on: connection, socks: destination, proxy: proxy)
        case .failure(let error):
            connection.close()
            if case .addressResolution(_, let code) = error { return pool.connectFailed(self, .cannotFindOrigin(code: code)) }
            pool.connectFailed(self, .cannotConnect(errno: error.systemErrno ?? EHOSTUNREACH))
        }
    }

    /// The key's host when it is an IP address literal: sent to a SOCKS proxy as it is.
    private var originAddress: SOCKS5Machine.Destination? {
        IPAddressBytes.parse(key.host).map(SOCKS5Machine.Destination.address)
    }

    /// SOCKS5's or SOCKS4's negotiation for a tunnel to `destination` at the key's port (SOCKS4
    /// takes an address, which `originResolved` made sure of for a name).
    private func negotiate(on connection: Connection, socks destination: SOCKS5Machine.Destination, proxy: ProxyEndpoint) {
        switch (proxy.kind, destination) {
        case (.socks4, .address(let address)):
            negotiate(on: connection, SOCKS4Machine(address: address, port: key.port, userID: proxy.credentials?.user))
        case (.socks4, .name):
            preconditionFailure("ConnectionOpener: a SOCKS4 tunnel to a name, \(key)")
        case (.socks5, _), (.socks5h, _):
            negotiate(on: connection, SOCKS5Machine(destination: destination, port: key.port, credentials: proxy.credentials))
        case (.http, _), (.https, _):
            preconditionFailure("ConnectionOpener: SOCKS's negotiation through an HTTP proxy, \(key)")
        }
    }

    private func negotiate(on connection: Connection, _ negotiation: any TunnelNegotiation) {
        let tunnel = ProxyTunnel(connection: connection, negotiation: negotiation, timeout: timeout) { [self] result in
            self.tunnel = nil
            switch result {
            case .success: secure(connection)
            case .failure(let failure): pool.connectFailed(self, failure)
            }
        }
        self.tunnel = tunnel
        tunnel.start()
    }

    /// Secures `connection` for an `https` key (as long again as the connect may take, offering
    /// the host's last session), then hands it to the pool; a plain one goes at once.
    private func secure(_ connection: Connection) {
        guard key.secure else { return pool.connected(self, connection) }
        handshake(on: connection, host: key.host, session: pool.session(for: key)) { [self] in
            pool.connected(self, connection)
        }
    }

    /// Runs a TLS handshake with `host` on `connection` (inside the TLS it has already, to an
    /// HTTPS proxy), with the client's verification settings, offering `session`, as long again
    /// as the connect may take; then `secured`, or the connect fails.
    private func handshake(on connection: Connection, host: String, session: TLSSession?, secured: @escaping () -> Void) {
        let tls: TLSMachine
        do throws(TLSFailure) {
            tls = try TLSMachine(client: TLSClientContext.shared(for: pool.tls), host: host, session: session)
        } catch {
            connection.close()
            return pool.connectFailed(self, ExchangeFailure(error))
        }
        let handshake = ConnectionHandshake(connection: connection) { [self] result in
            self.handshake = nil
            switch result {
            case .success: secured()
            case .failure(let failure): pool.connectFailed(self, failure)
            }
        }
        self.handshake = handshake
        handshake.start(tls, timeout: timeout)
    }

    /// Attempt `index`'s connect finished (its socket turned writable): a failed one is closed
    /// before the machine hears of it.
    func attemptFinished(_ index: Int) {
        loop.assertInLoop()
        guard let attempt = sockets[index] else { return }
        let number = attempt.connectionError()
        if number != 0 {
            sockets[index] = nil
            loop.deregister(attempt)
            attempt.close()
        }
        run(attempts.finished(index: index, errno: number))
    }

    /// Cancels the timers and closes every attempt's socket still held (the winner, taken out
    /// and deregistered first, reaches its request watched by nobody).
    private func stop() {
        connectTimer?.cancel()
        connectTimer = nil
        staggerTimer?.cancel()
        staggerTimer = nil
        for attempt in sockets.values {
            loop.deregister(attempt)
            attempt.close()
        }
        sockets.removeAll()
    }
}
