/// CRC-32 as gzip uses it (polynomial 0xEDB88320, reflected).
enum CRC32 {
    /// Eight tables of 256 (slicing by 8): the first is the byte-at-a-time table; entry `i` of
    /// table `k` is the CRC of byte `i` followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = (0..<256).map { index -> UInt32 in
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            return value
        }
        for index in 256..<(8 * 256) {
            let previous = tables[index - 256]
            tables.append(previous >> 8 ^ tables[Int(previous & 0xFF)])
        }
        return tables
    }()

    /// The CRC of some bytes (`crc`, 0 for none) and then `bytes`: 8 bytes a step, then one at a time.
    static func update(_ crc: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc = ~crc
        // In range: every table index is a byte value plus a multiple of 256 below 8 * 256, and
        // the input is read below `count`.
        tables.withUnsafeBufferPointer { table in
            bytes.withUnsafeBytes { input in
                var index = 0
                let count = input.count
                func entry(_ slice: Int, _ byte: UInt32) -> UInt32 { table[slice << 8 | Int(byte & 0xFF)] }
                while count - index >= 8 {
                    let low = crc ^ UInt32(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                    let high = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                    crc = entry(7, low) ^ entry(6, low >> 8) ^ entry(5, low >> 16) ^ entry(4, low >> 24)
                        ^ entry(3, high) ^ entry(2, high >> 8) ^ entry(1, high >> 16) ^ entry(0, high >> 24)
                    index += 8
                }
                while index < count {
                    crc = entry(0, crc ^ UInt32(input[index])) ^ crc >> 8
                    index += 1
                }
            }
        }
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
