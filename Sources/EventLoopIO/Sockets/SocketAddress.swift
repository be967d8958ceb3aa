/// A resolved IPv4 or IPv6 address and port, as `connect()` takes it.
public struct SocketAddress: Sendable, Hashable {
    /// `AF_INET` or `AF_INET6`.
    public let family: Int32
    private let bytes: [UInt8]

    init(family: Int32, bytes: UnsafeRawBufferPointer) {
        self.family = family
        self.bytes = Array(bytes.prefix(MemoryLayout<sockaddr_storage>.size))
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockAddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes) }
        return try withUnsafePointer(to: &storage) { (pointer) throws(Failure) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(Failure) -> Result in
                try body(address, socklen_t(bytes.count))
            }
        }
    }

    /// Resolves `host` (a name or an IPv4/IPv6 literal) with `getaddrinfo`, in the system's order.
    /// With `numericOnly` no lookup is made: a name fails at once with `EAI_NONAME`, so a caller
    /// on an event loop can resolve literals inline and send names to a thread that may block.
    public static func resolve(host: String, port: UInt16, numericOnly: Bool = false) throws(SocketError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SystemLibrary.streamType
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let first = list else {
            if code == EAI_SYSTEM { throw .system(operation: .getaddrinfo, errno: errno) }
            throw .addressResolution(host: host, code: code)
        }
        defer { freeaddrinfo(first) }
        var result: [SocketAddress] = []
        var current: UnsafeMutablePointer<addrinfo>? = first
        while let info = current {
            current = info.pointee.ai_next
            guard let address = info.pointee.ai_addr else { continue }
            result.append(SocketAddress(family: info.pointee.ai_family,
                                        bytes: UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen))))
        }
        guard !result.isEmpty else { throw .addressResolution(host: host, code: EAI_NONAME) }
        return result
    }
}

extension SocketAddress: CustomStringConvertible {
    /// The address as text: `127.0.0.1:8080`, `[::1]:443`, or a Unix domain socket's path.
    public var description: String {
        withSockAddr { SystemLibrary.describe($0, $1) }
    }
}
