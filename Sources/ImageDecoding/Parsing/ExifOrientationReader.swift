/// Finds the EXIF `Orientation` tag (0x0112 in IFD0) in an APP1 segment, reading every field
/// with bounds checks; anything unreadable counts as no orientation.
enum ExifOrientationReader {
    /// The orientation in the APP1 segments of the JPEG `bytes` (before the first scan), `.up`
    /// when there is none.
    static func orientation(in bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { break }
            if marker == 0xE1,
               let found = orientation(inSegment: UnsafeBufferPointer(rebasing: bytes[(index + 4)..<(index + 2 + length)])) {
                return found
            }
            index += 2 + length
        }
        return .up
    }

    /// The orientation in one APP1 payload (`Exif\0\0` then a TIFF structure), `nil` when the
    /// payload is not EXIF or has no valid orientation tag.
    static func orientation(inSegment payload: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard payload.count >= 14, Array(payload[0..<6]) == header else { return nil }
        let tiff = UnsafeBufferPointer(rebasing: payload[6...])
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func read32(_ at: Int) -> Int? {
            guard let low = read16(littleEndian ? at : at + 2), let high = read16(littleEndian ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard read16(2) == 42, let directory = read32(4), let entries = read16(directory) else { return nil }
        for entry in 0..<entries {
            let at = directory + 2 + 12 * entry
            guard let tag = read16(at) else { return nil }
            guard tag == 0x0112 else { continue }
            guard read16(at + 2) == 3, let value = read16(at + 8), value <= 255 else { return nil }
            return ImageOrientation(rawValue: UInt8(value))
        }
        return nil
    }
}
