/// The system call a `SocketError.system` comes from.
public enum SocketOperation: String, Sendable, Hashable, CustomStringConvertible {
    /// `socket()`: creating the descriptor.
    case socket
    /// `bind()`: taking a local address.
    case bind
    /// `listen()`.
    case listen
    /// `accept()`.
    case accept
    /// `connect()`, or the outcome of a non-blocking connect (`SO_ERROR`).
    case connect
    /// `recv()`.
    case read
    /// `send()`.
    case write
    /// Waiting for readiness (`epoll` on Linux, `poll` elsewhere), or making the poller.
    case poll
    /// `getsockopt()`.
    case getsockopt
    /// `getsockname()`.
    case getsockname
    /// `getaddrinfo()` with `EAI_SYSTEM`.
    case getaddrinfo
    /// Making an event loop's wake-up descriptor (an eventfd on Linux, a pipe elsewhere).
    case pipe

    /// The call's name, such as `connect`.
    public var description: String { rawValue }
}
