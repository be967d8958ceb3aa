/// A failed socket operation.
public enum SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed; `errno` is its error number (`ECONNREFUSED`, `ECONNRESET`, ...).
    case system(operation: SocketOperation, errno: Int32)
    /// `getaddrinfo` could not resolve `host`; `code` is its `EAI_*` result.
    case addressResolution(host: String, code: Int32)
    /// The operation did not finish within its timeout.
    case timedOut(operation: SocketOperation)
    /// The socket was already closed by this process.
    case closed

    /// Names the operation and the system's message for the error.
    public var description: String {
        switch self {
        case .system(let operation, let number):
            "\(operation) failed: \(Self.message(errno: number)) (errno \(number))"
        case .addressResolution(let host, let code):
            "cannot resolve \(host): \(String(cString: gai_strerror(code))) (code \(code))"
        case .timedOut(let operation):
            "\(operation) timed out"
        case .closed:
            "socket already closed"
        }
    }

    /// The system's message for `errno`, such as "Connection refused".
    public static func message(errno number: Int32) -> String {
        String(cString: strerror(number))
    }

    /// The system error number, when the failure has one.
    public var systemErrno: Int32? {
        if case .system(_, let number) = self { return number }
        return nil
    }

    /// Whether the peer refused the connection (`ECONNREFUSED`).
    public var isConnectionRefused: Bool { self == .system(operation: .connect, errno: ECONNREFUSED) }

    /// Whether the peer reset the connection (`ECONNRESET` or `EPIPE`).
    public var isConnectionReset: Bool {
        if case .system(_, let number) = self { return number == ECONNRESET || number == EPIPE }
        return false
    }
}
