import EventLoopIO

/// What an exchange receives from the pool on its loop: a kept-alive connection, or the right to
/// open a new one. Either way the exchange holds one of the host's connection slots until it gives
/// the lease back.
enum ConnectionLease: Sendable {
    /// A kept-alive connection that served an earlier request and waited in the pool since.
    case reused(Connection)
    /// A kept-alive connection passed straight from the request that released it, which read a
    /// whole answer on it a moment before: it never sat idle.
    case handedOver(Connection)
    /// A free slot: the exchange connects itself.
    case fresh

    /// The connection, when the lease carries one.
    var connection: Connection? {
        switch self {
        case .reused(let connection), .handedOver(let connection): connection
        case .fresh: nil
        }
    }
}
