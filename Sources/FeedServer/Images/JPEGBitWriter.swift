/// Entropy-coded bits for a JPEG scan: most significant bit first, a `0x00` stuffed after
/// every `0xFF` byte, the last byte padded with 1 bits.
struct JPEGBitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt32 = 0
    private var count = 0

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `length` bits of `code` (`length` at most 24).
    mutating func write(_ code: UInt32, length: Int) {
        guard length > 0 else { return }
        buffer = (buffer << UInt32(length)) | (code & ((1 << UInt32(length)) - 1))
        count += length
        while count >= 8 {
            let byte = UInt8(truncatingIfNeeded: buffer >> UInt32(count - 8))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0x00) }
            count -= 8
        }
        buffer &= (1 << UInt32(count)) - 1
    }

    /// Pads the last partial byte with 1 bits, as the standard asks before a marker.
    mutating func flush() {
        if count > 0 { write((1 << UInt32(8 - count)) - 1, length: 8 - count) }
    }
}
