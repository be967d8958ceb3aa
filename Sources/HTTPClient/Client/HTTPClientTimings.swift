import EventLoopIO

/// When each step of one request happened, read from the monotonic clock as the request's
/// machines saw it, and what went over the wire: how long it waited for a connection, resolved,
/// connected, shook hands, sent and waited for its first byte. After redirects, the moments are
/// the last hop's (its connection's) and the bytes count every hop's. A step that did not happen
/// (a kept-alive connection is neither resolved nor connected; `http` is not secured; a request
/// that failed before its answer has no `firstByte`) is nil.
///
/// ```swift
/// let response = try await client.execute(request)
/// if let sent = response.timings.sent, let first = response.timings.firstByte { print("server time:", first - sent) }
/// ```
public struct HTTPClientTimings: Sendable, Equatable {
    /// The request was handed to the client (it then waits for a connection).
    public var queued: ContinuousClock.Instant? {
        get { moments.queued?.instant }
        set { moments.queued = newValue.map(MonotonicTime.init) }
    }
    /// The host's addresses were known (a name looked up, or a literal read) for a new connection.
    public var resolved: ContinuousClock.Instant? {
        get { moments.resolved?.instant }
        set { moments.resolved = newValue.map(MonotonicTime.init) }
    }
    /// A new connection's TCP connect completed (the Happy Eyeballs attempt that won).
    public var connected: ContinuousClock.Instant? {
        get { moments.connected?.instant }
        set { moments.connected = newValue.map(MonotonicTime.init) }
    }
    /// A new `https` connection's TLS handshake completed.
    public var secured: ContinuousClock.Instant? {
        get { moments.secured?.instant }
        set { moments.secured = newValue.map(MonotonicTime.init) }
    }
    /// The last byte of the request (head and body) was written to the socket.
    public var sent: ContinuousClock.Instant? {
        get { moments.sent?.instant }
        set { moments.sent = newValue.map(MonotonicTime.init) }
    }
    /// The first byte of the answer arrived (TLS's handshake records are not the answer).
    public var firstByte: ContinuousClock.Instant? {
        get { moments.firstByte?.instant }
        set { moments.firstByte = newValue.map(MonotonicTime.init) }
    }
    /// The request ended: its response whole, or its failure decided.
    public var finished: ContinuousClock.Instant? {
        get { moments.finished?.instant }
        set { moments.finished = newValue.map(MonotonicTime.init) }
    }
    /// Bytes written to the socket for the request (TLS records included), every hop's.
    public var bytesSent: Int64
    /// Bytes read from the socket for the answer (TLS records included), every hop's.
    public var bytesReceived: Int64
    /// Whether the last hop's connection was a kept-alive one that had served a request before.
    public var reusedConnection: Bool
    /// The address the last hop's connection is open to (`127.0.0.1:8080`, `[::1]:443`, a Unix
    /// socket's path), when known.
    public var remoteAddress: String?
    /// What the last hop's connection's TLS handshake agreed on: `version`, `cipher`,
    /// `applicationProtocol` (ALPN); nil for `http`.
    public var tls: TLSHandshake?
    /// Each Happy Eyeballs attempt of the last hop's new connection, in the order started: its
    /// address, start and end, and outcome (the one that `connected`, those that failed or were
    /// abandoned for it); empty for a kept-alive connection.
    public var connectAttempts: [ConnectAttempt]
    /// The moments above as the package keeps them (see `MonotonicTime`).
    var moments = Moments()

    /// When each step happened, on the package's clock.
    struct Moments: Equatable, Sendable {
        var queued: MonotonicTime?
        var resolved: MonotonicTime?
        var connected: MonotonicTime?
        var secured: MonotonicTime?
        var sent: MonotonicTime?
        var firstByte: MonotonicTime?
        var finished: MonotonicTime?
    }

    /// Timings as given; the client fills them in as the request goes.
    public init(queued: ContinuousClock.Instant? = nil, resolved: ContinuousClock.Instant? = nil,
                connected: ContinuousClock.Instant? = nil, secured: ContinuousClock.Instant? = nil,
                sent: ContinuousClock.Instant? = nil, firstByte: ContinuousClock.Instant? = nil,
                finished: ContinuousClock.Instant? = nil, bytesSent: Int64 = 0, bytesReceived: Int64 = 0,
                reusedConnection: Bool = false, remoteAddress: String? = nil, tls: TLSHandshake? = nil,
                connectAttempts: [ConnectAttempt] = []) {
        self.moments = Moments(queued: queued.map(MonotonicTime.init), resolved: resolved.map(MonotonicTime.init),
                               connected: connected.map(MonotonicTime.init), secured: secured.map(MonotonicTime.init),
                               sent: sent.map(MonotonicTime.init), firstByte: firstByte.map(MonotonicTime.init),
                               finished: finished.map(MonotonicTime.init))
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.reusedConnection = reusedConnection
        self.remoteAddress = remoteAddress
        self.tls = tls
        self.connectAttempts = connectAttempts
    }

    /// From `queued` to `finished`, when both are known.
    public var total: Duration? {
        guard let queued = moments.queued, let finished = moments.finished else { return nil }
        return finished - queued
    }

    /// From `sent` to `firstByte` (the server's time, and the network's), when both are known.
    public var waitingForFirstByte: Duration? {
        guard let sent = moments.sent, let firstByte = moments.firstByte else { return nil }
        return firstByte - sent
    }
}

extension HTTPClientTimings {
    /// A connection was leased for a hop: its connect's moments (nil for a kept-alive one), and
    /// the hop's later moments start over.
    mutating func leased(_ connection: Connection, reused: Bool) {
        reusedConnection = reused
        remoteAddress = connection.remoteAddress
        tls = connection.handshake
        moments.resolved = reused ? nil : connection.resolvedAt
        moments.connected = reused ? nil : connection.connectedAt
        connectAttempts = reused ? [] : connection.connectAttempts
        moments.secured = nil
        moments.sent = nil
        moments.firstByte = nil
    }

    /// Bytes of the answer arrived (plaintext, after TLS), read from the socket at `moment`.
    mutating func answerArrived(at moment: MonotonicTime) {
        if moments.firstByte == nil { moments.firstByte = moment }
    }
}
