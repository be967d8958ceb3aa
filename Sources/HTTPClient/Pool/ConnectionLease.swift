/// What an exchange receives from the pool on its loop: a connection leased to it (it then holds
/// one of the host's slots until it releases the connection), or the failure of the connection
/// the pool was opening when it was the first in line.
enum ConnectionLease: Sendable {
    /// A kept-alive connection that served an earlier request and waited in the pool since.
    case reused(Connection)
    /// A kept-alive connection passed straight from the request that released it, which read a
    /// whole answer on it a moment before: it never sat idle.
    case handedOver(Connection)
    /// A connection the pool just opened for its waiters (for `https`, not secured yet).
    case connected(Connection)
    /// Opening a connection for the waiters failed while this exchange was the first in line.
    case failed(ExchangeFailure)

    /// The connection, when the lease carries one.
    var connection: Connection? {
        switch self {
        case .reused(let connection), .handedOver(let connection), .connected(let connection): connection
        case .failed: nil
        }
    }
}
