/// One entry of `no_proxy` as curl reads it: `*` (every host, when it is the whole value), a
/// host name that also covers its subdomains (`example.com`, `.example.com`; never an address),
/// an IPv4 or IPv6 address, a CIDR range (`10.0.0.0/8`, `fd00::/8`), each optionally with
/// `:port` (then only that port).
struct NoProxyRule: Equatable, Sendable {
    enum Pattern: Equatable, Sendable {
        case everything
        case domain(String)
        case network(bytes: [UInt8], prefix: Int)
    }

    let pattern: Pattern
    let port: Int?

    /// The rules of a whole `no_proxy` value (comma- or space-separated); unreadable entries are
    /// skipped. `*` is the wildcard only as the whole value (blanks around it aside): in a list
    /// it is an entry that names no host, as curl reads it.
    static func rules(_ value: String) -> [NoProxyRule] {
        if value.trimmingCharacters(in: .whitespaces) == "*" { return [NoProxyRule(pattern: .everything, port: nil)] }
        return value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).compactMap { NoProxyRule(String($0)) }
    }

    private init(pattern: Pattern, port: Int?) {
        self.pattern = pattern
        self.port = port
    }

    /// The rule one entry of a list names; nil for one that names no host (`*` among others).
    init?(_ entry: String) {
        var text = entry.lowercased()
        guard !text.isEmpty, text != "*" else { return nil }
        var port: Int?
        if text.hasPrefix("[") {
            // [v6]:port
            guard let close = text.firstIndex(of: "]") else { return nil }
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) } else if !after.isEmpty { return nil }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.lastIndex(of: ":") {
            port = Int(text[text.index(after: colon)...])
            guard port != nil else { return nil }
            text = String(text[..<colon])
        }
        self.port = port
        var prefix: Int?
        if let slash = text.firstIndex(of: "/") {
            guard let bits = Int(text[text.index(after: slash)...]) else { return nil }
            prefix = bits
            text = String(text[..<slash])
        }
        if let bytes = IPAddressBytes.parse(text) {
            let bits = prefix ?? bytes.count * 8
            guard (0...bytes.count * 8).contains(bits) else { return nil }
            pattern = .network(bytes: bytes, prefix: bits)
        } else {
            guard prefix == nil else { return nil }
            let domain = text.hasPrefix(".") ? String(text.dropFirst()) : text
            guard !domain.isEmpty else { return nil }
            pattern = .domain(domain.hasSuffix(".") ? String(domain.dropLast()) : domain)
        }
    }

    /// Whether a request to `host` (lower-cased, no brackets, its IP address bytes `address` when
    /// it is one) on `port` goes direct. Compares bytes: no string is built per request. An
    /// address is compared with addresses and ranges only, as curl compares it.
    func matches(host: String, address: [UInt8]?, port requestPort: Int) -> Bool {
        if let port, port != requestPort { return false }
        switch pattern {
        case .everything:
            return true
        case .domain(let domain):
            guard address == nil else { return false }
            var host = host.utf8[...]
            if host.last == UInt8(ascii: ".") { host = host.dropLast() }
            let domain = domain.utf8
            guard host.count >= domain.count, host.suffix(domain.count).elementsEqual(domain) else { return false }
            return host.count == domain.count || host.dropLast(domain.count).last == UInt8(ascii: ".")
        case .network(let network, let prefix):
            guard let address, address.count == network.count else { return false }
            return IPAddressBytes.samePrefix(address, network, bits: prefix)
        }
    }
}
