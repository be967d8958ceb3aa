import HTTPWire

/// What a tunnel's negotiation with a proxy does next, on a connection just made to the proxy:
/// `CONNECT` to an HTTP proxy (`ProxyTunnelMachine`), SOCKS5's exchange (`SOCKS5Machine`) or SOCKS4's
/// request (`SOCKS4Machine`).
enum TunnelAction: Equatable, Sendable {
    /// Nothing (more of the answer is awaited).
    case none
    /// Writes these bytes, then reports `written()`.
    case write([UInt8])
    /// Watches the socket for the answer only.
    case awaitAnswer
    /// The tunnel is open: the connection goes on to be secured with the origin, or to the pool.
    case established
    /// The tunnel could not be opened: the socket is closed and the connect fails so.
    case fail(ExchangeFailure)
}

/// A tunnel's negotiation as a value, which `ProxyTunnel` drives on the connection's loop: it
/// takes what happened and returns the one `TunnelAction` to perform next. Every event but
/// `start()` comes only while `isNegotiating`; `written()` and `writeFailed()` only while
/// `isSending`.
protocol TunnelNegotiation: Sendable {
    /// Bytes of the negotiation are going out (the driver flushes them as room comes).
    var isSending: Bool { get }
    /// Started and not yet done: the driver reads the proxy's answer.
    var isNegotiating: Bool { get }
    /// The connection to the proxy is open: the first bytes go out.
    mutating func start() -> TunnelAction
    /// The bytes of the last `write` are all out.
    mutating func written() -> TunnelAction
    /// Bytes of the proxy's answer arrived.
    mutating func received(_ bytes: ArraySlice<UInt8>) -> TunnelAction
    /// The proxy closed the connection first.
    mutating func endOfStream() -> TunnelAction
    /// A read failed with `errno`.
    mutating func readFailed(errno: Int32) -> TunnelAction
    /// The proxy stopped taking the bytes.
    mutating func writeFailed() -> TunnelAction
    /// The connect deadline passed before the tunnel was open.
    mutating func timerFired() -> TunnelAction
}

extension ExchangeFailure {
    /// The proxy's bytes are no answer of the negotiation's protocol (or more than its answer,
    /// before the origin may speak): reported as a malformed response, whichever protocol.
    static let notAProxyAnswer = ExchangeFailure.response(.malformedStartLine(offset: 0))
}
