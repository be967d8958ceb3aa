import HTTPWire

/// What the pool hands an exchange: an idle kept-alive connection, or the right to open a new one.
/// Either way the exchange holds one of the host's connection slots until it gives the lease back.
enum ConnectionLease: Sendable {
    /// A kept-alive connection that served an earlier request.
    case reused(TCPSocket)
    /// A free slot: the exchange connects itself.
    case fresh
}
