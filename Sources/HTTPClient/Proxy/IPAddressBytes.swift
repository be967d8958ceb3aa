/// IPv4 and IPv6 addresses as bytes, for `no_proxy`'s addresses and CIDR ranges.
enum IPAddressBytes {
    /// The 4 or 16 bytes of `text` (dotted IPv4; IPv6 with `::` and an IPv4 tail); nil otherwise.
    static func parse(_ text: String) -> [UInt8]? {
        text.contains(":") ? ipv6(text) : ipv4(text)
    }

    static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
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
