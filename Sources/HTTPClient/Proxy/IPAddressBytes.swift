import SystemTLS

/// IPv4 and IPv6 addresses as bytes, for `no_proxy`'s addresses and CIDR ranges.
enum IPAddressBytes {
    /// The 4 or 16 bytes of `text` (dotted IPv4; IPv6 with `::` and an IPv4 tail); nil otherwise.
    static func parse(_ text: String) -> [UInt8]? {
        // A host name has a letter past `f` or a `-`: most are turned away here, without a split.
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.allSatisfy({ byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }) else { return nil }
        return utf8.contains(UInt8(ascii: ":")) ? ipv6(text) : ipv4(text)
    }

    /// The bytes of the address a URL's `host` (no brackets) connects to, nil for a name: an IPv6
    /// literal, or IPv4 as `inet_aton` reads it and so `getaddrinfo` connects to it (`127.1` is
    /// 127.0.0.1, `010.1.2.3` is 8.1.2.3: octal), as curl normalizes a URL's host.
    static func host(_ host: String) -> [UInt8]? {
        guard let first = host.utf8.first else { return nil }
        if host.utf8.contains(UInt8(ascii: ":")) { return ipv6(host) }
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        return PeerName.ipv4(host[...]).flatMap(ipv4)
    }

    /// The 4 bytes of a dotted IPv4 address (each part 1 to 3 digits, at most 255), read byte by byte.
    static func ipv4(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4)
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, bytes.count < 3 else { return nil }
                bytes.append(UInt8(value))
                value = 0
                digits = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard digits <= 3, value <= 255 else { return nil }
            } else {
                return nil
            }
        }
        guard digits > 0, bytes.count == 3 else { return nil }
        bytes.append(UInt8(value))
        return bytes
    }

    static func ipv6(_ text: String) -> [UInt8]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var bytes: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    guard let tail = ipv4(String(piece)) else { return nil }
                    bytes += tail
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 16 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    /// Whether `lhs` and `rhs` share their first `bits` bits.
    static func samePrefix(_ lhs: [UInt8], _ rhs: [UInt8], bits: Int) -> Bool {
        var remaining = bits
        for (left, right) in zip(lhs, rhs) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if left & mask != right & mask { return false }
            remaining -= 8
        }
        return true
    }
}
