import Foundation

/// Finds marker segments in a JPEG for tests that patch real files: offsets of each marker's `FF`.
enum JPEGMarkers {
    /// Offsets of the markers before the first scan's data, and of the first SOS, in order.
    static func headerMarkers(_ bytes: [UInt8]) -> [(code: UInt8, offset: Int)] {
        var result: [(UInt8, Int)] = []
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let code = bytes[index + 1]
            result.append((code, index))
            if code == 0xDA { break }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return result
    }

    static func first(_ code: UInt8, in bytes: [UInt8]) -> Int? {
        headerMarkers(bytes).first { $0.code == code }?.offset
    }

    /// The first frame header (any SOFn).
    static func frameHeader(in bytes: [UInt8]) -> Int? {
        headerMarkers(bytes).first { (0xC0...0xCF).contains($0.code) && $0.code != 0xC4 && $0.code != 0xCC }?.offset
    }

    /// Offset of the first byte after the first SOS header: the entropy-coded data.
    static func scanData(in bytes: [UInt8]) -> Int? {
        guard let sos = first(0xDA, in: bytes) else { return nil }
        return sos + 2 + (Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3]))
    }

    /// Offsets of markers (not stuffed `FF 00`, not fill) with `code` in the entropy data from `start`.
    static func entropyMarkers(_ code: UInt8, in bytes: [UInt8], from start: Int) -> [Int] {
        (start..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == code }
    }
}
