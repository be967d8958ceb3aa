/// Safe, fixed-length file names for cache keys: two 64-bit FNV-1a hashes (different offset
/// bases) in hex. Collisions are harmless: each file records its key and is checked on read.
enum CacheFileName {
    static let fileExtension = "response"

    static func forKey(_ key: String) -> String {
        let bytes = Array(key.utf8)
        let first = fnv1a(bytes, basis: 0xcbf2_9ce4_8422_2325)
        let second = fnv1a(bytes, basis: 0x6c62_272e_07bb_0142)
        return hex(first) + hex(second) + "." + fileExtension
    }

    private static func fnv1a(_ bytes: [UInt8], basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
