/// What a client checks the server's certificate against: a DNS name (sent as SNI too) or an
/// IP address (never sent as SNI, RFC 6066 section 3), from a URL's host.
enum PeerName: Equatable {
    case dns(String)
    case ip(String)

    /// `host` without URL brackets, an IPv6 zone (`%eth0`) or a DNS name's trailing dot. A DNS
    /// name must be ASCII (internationalized names as their A-labels: SNI and certificates
    /// carry nothing else, RFC 6066 section 3) with no empty label (OpenSSL would read a leading
    /// dot as "any name under this domain").
    init(host: String) throws(TLSFailure) {
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        guard !name.isEmpty, !name.utf8.contains(0) else { throw .invalidHostName(host) }
        if name.contains(":") {
            // Only IPv6 literals hold a colon.
            if let zone = name.firstIndex(of: "%") { name = name[..<zone] }
            self = .ip(String(name))
        } else if Self.isIPv4(name) {
            self = .ip(String(name))
        } else {
            if name.hasSuffix(".") { name = name.dropLast() }
            guard name.utf8.allSatisfy({ $0 < 0x80 }),
                  name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty }) else {
                throw .invalidHostName(host)
            }
            self = .dns(String(name))
        }
    }

    /// Whether `name` is a dotted-quad IPv4 address (four decimal numbers up to 255).
    private static func isIPv4(_ name: Substring) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.utf8.count) && part.utf8.allSatisfy { (0x30...0x39).contains($0) } && (Int(part) ?? 256) <= 255
        }
    }
}
