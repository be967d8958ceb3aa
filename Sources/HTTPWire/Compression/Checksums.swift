/// CRC-32 as gzip uses it (polynomial 0xEDB88320, reflected).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC of some bytes (`crc`, 0 for none) and then `bytes`.
    static func update(_ crc: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc = ~crc
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}

/// Adler-32 as zlib uses it.
enum Adler32 {
    /// The checksum of no bytes.
    static let initial: UInt32 = 1

    /// The checksum of some bytes (`adler`) and then `bytes`.
    static func update(_ adler: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        var a = adler & 0xFFFF, b = adler >> 16
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let end = min(index + 5552, bytes.endIndex)
            while index < end {
                a += UInt32(bytes[index])
                b += a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}
