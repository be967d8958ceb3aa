/// What a client checks the server's certificate against: a DNS name (sent as SNI too) or an
/// IP address (never sent as SNI, RFC 6066 section 3), from a URL's host.
package enum PeerName: Equatable {
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
        } else if let address = Self.ipv4(name) {
            self = .ip(address)
        } else {
            if name.hasSuffix(".") { name = name.dropLast() }
            guard name.utf8.allSatisfy({ $0 < 0x80 }),
                  name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty }) else {
                throw .invalidHostName(host)
            }
            self = .dns(String(name))
        }
    }

    /// `name` as the dotted quad of the IPv4 address it spells the way `inet_aton` reads it, and
    /// so `getaddrinfo` connects to it (as curl and WHATWG URLs normalize it): one to four parts,
    /// each decimal, octal (a leading `0`) or hex (`0x`), the last filling the bytes left
    /// (`127.1` is 127.0.0.1, `2130706433` too), a trailing dot allowed; nil for anything else.
    package static func ipv4(_ name: Substring) -> String? {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = number(part) else { return nil }
            numbers.append(number)
        }
        let leading = numbers.dropLast()
        guard let last = numbers.last, leading.allSatisfy({ $0 <= 255 }), last < UInt64(1) << (8 * (5 - numbers.count)) else { return nil }
        var address = last
        for (index, byte) in leading.enumerated() { address |= byte << (8 * (3 - index)) }
        return "\(address >> 24).\(address >> 16 & 255).\(address >> 8 & 255).\(address & 255)"
    }

    /// One part of an IPv4 address: decimal, octal after a leading `0`, hex after `0x`; nil
    /// when it holds another character or is longer than any part of an address can be.
    private static func number(_ part: Substring) -> UInt64? {
        var digits = part.utf8[...]
        var radix: UInt64 = 10
        if digits.count > 2, digits.first == UInt8(ascii: "0"), digits.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count > 1, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        guard (1...12).contains(digits.count) else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            value = value * radix + digit
        }
        return value
    }
}
