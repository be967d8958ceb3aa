extension String {
    /// This already percent-encoded text made valid for a URL's query (RFC 3986 §3.4): bytes a
    /// query cannot hold, and a `%` that starts no escape, are percent-encoded; the rest (escapes
    /// included) is kept. `URLComponents.percentEncodedQuery` stops the program on anything else.
    var validPercentEncodedQuery: String {
        let bytes = Array(utf8)
        guard bytes.indices.contains(where: { !Self.keepsInQuery(bytes, at: $0) }) else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        for index in bytes.indices {
            let byte = bytes[index]
            if Self.keepsInQuery(bytes, at: index) {
                result.append(byte)
            } else {
                result.append(UInt8(ascii: "%"))
                result.append(Self.hexDigit(byte >> 4))
                result.append(Self.hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether the byte at `index` may stay as it is: RFC 3986's `pchar`, `/` and `?`, or a `%`
    /// followed by two hex digits.
    private static func keepsInQuery(_ bytes: [UInt8], at index: Int) -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        case UInt8(ascii: "%"):
            return index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
        default:
            return false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "a")...UInt8(ascii: "f"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
