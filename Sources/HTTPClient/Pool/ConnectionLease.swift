import EventLoopIO

/// What an exchange receives from the pool on its loop: a kept-alive connection, or the right to
/// open a new one. Either way the exchange holds one of the host's connection slots until it gives
/// the lease back.
enum ConnectionLease: Sendable {
    /// A kept-alive connection that served an earlier request and waited in the pool since.
    case reused(TCPSocket)
    /// A kept-alive connection passed straight from the request that released it, which read a
    /// whole answer on it a moment before: it never sat idle.
    case handedOver(TCPSocket)
    /// A free slot: the exchange connects itself.
    case fresh

    /// The connection, when the lease carries one.
    var socket: TCPSocket? {
        switch self {
        case .reused(let socket), .handedOver(let socket): socket
        case .fresh: nil
        }
    }
}
