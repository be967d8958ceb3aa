/// The system call a `SocketError.system` comes from.
public enum SocketOperation: String, Sendable, Hashable, CustomStringConvertible {
    case socket, bind, listen, accept, connect, read, write, poll, getsockopt, getsockname, getaddrinfo, pipe

    /// The call's name, such as `connect`.
    public var description: String { rawValue }
}
