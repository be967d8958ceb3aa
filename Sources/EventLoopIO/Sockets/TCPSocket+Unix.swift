// Unix domain sockets: the same stream sockets as TCP's, named by a path instead of an address
// and a port (`http+unix://` URLs, a server listening on a file).

extension SocketAddress {
    /// The Unix domain socket at `path`; throws `addressResolution` with `EAI_NONAME` when the
    /// path is empty, holds a zero byte or is too long for the system's `sockaddr_un`.
    public static func unix(path: String) throws(SocketError) -> SocketAddress {
        guard let bytes = SystemLibrary.unixAddress(path: path) else { throw .addressResolution(host: path, code: EAI_NONAME) }
        return bytes.withUnsafeBytes { SocketAddress(family: AF_UNIX, bytes: $0) }
    }
}

extension TCPSocket {
    /// Creates a socket bound to the Unix domain socket file `path` (a file left there by an
    /// earlier listener is removed first) and listens; remove the file once the socket is closed
    /// (`removeUnixSocketFile`).
    public static func listen(unixPath path: String, backlog: Int32 = 512) throws(SocketError) -> TCPSocket {
        let address = try SocketAddress.unix(path: path)
        let fd = SystemLibrary.socket(family: AF_UNIX)
        guard fd >= 0 else { throw .system(operation: .socket, errno: errno) }
        let socket = TCPSocket(descriptor: fd)
        SystemLibrary.removeFile(path)
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        return try listening(socket, bound: bound, backlog: backlog)
    }

    /// Removes the file a Unix domain socket listened on.
    public static func removeUnixSocketFile(_ path: String) {
        SystemLibrary.removeFile(path)
    }
}
