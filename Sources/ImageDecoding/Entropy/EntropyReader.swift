/// Reads the bits of an entropy-coded segment: removes the stuffed zero after each `FF` data
/// byte, stops in front of the next marker, and from there on supplies zero bits while it
/// counts them, so running past the end is detected instead of read.
struct EntropyReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to load; at a marker, the offset of its `FF`.
    private(set) var position: Int
    /// Unread bits, most significant first.
    private var buffer: UInt64 = 0
    /// How many bits of `buffer` are valid (real or made-up zeros).
    private var count = 0
    /// How many of the loaded bits were made-up zeros after the data ended.
    private var padding = 0
    /// Whether loading stopped at a marker (or the end of the data).
    private(set) var reachedMarker = false

    init(bytes: UnsafeBufferPointer<UInt8>, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// Whether more bits were consumed than the segment holds.
    var overran: Bool { count < padding }

    /// Loads bytes until at least 57 bits are buffered.
    @inline(__always)
    mutating func fill() {
        while count <= 56 {
            var byte: UInt8 = 0
            if !reachedMarker, position < bytes.count {
                let value = bytes[position]
                if value != 0xFF {
                    byte = value
                    position += 1
                } else {
                    var next = position + 1
                    while next < bytes.count, bytes[next] == 0xFF { next += 1 }
                    if next < bytes.count, bytes[next] == 0 {
                        byte = 0xFF
                        position = next + 1
                    } else {
                        reachedMarker = true
                        position = next - 1
                        padding += 8
                    }
                }
            } else {
                reachedMarker = true
                padding += 8
            }
            buffer |= UInt64(byte) &<< UInt64(truncatingIfNeeded: 56 - count)
            count += 8
        }
    }

    /// Makes sure at least 32 bits are buffered: one Huffman code plus its extra bits. Loads
    /// whole bytes at once from one 8-byte read when none of those 8 is an `FF` (the common
    /// case), byte by byte through `fill()` otherwise.
    @inline(__always)
    mutating func ensure() {
        guard count < 32 else { return }
        if !reachedMarker, position &+ 8 <= bytes.count {
            let word = UInt64(bigEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + position)
                .loadUnaligned(as: UInt64.self))
            // A byte of `word` is FF exactly when that byte of `~word` is zero.
            let inverted = ~word
            if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 {
                let loaded = (64 &- count) & ~7
                buffer |= (word &>> UInt64(truncatingIfNeeded: 64 &- loaded))
                    &<< UInt64(truncatingIfNeeded: 64 &- count &- loaded)
                position &+= loaded &>> 3
                count &+= loaded
                return
            }
        }
        fill()
    }

    @inline(__always)
    private mutating func consume(_ bits: Int) {
        buffer &<<= UInt64(truncatingIfNeeded: bits)
        count &-= bits
    }

    /// The next `bits` (0...16) bits as an unsigned number. Call `ensure()` first.
    @inline(__always)
    mutating func bits(_ bits: Int) -> Int {
        guard bits > 0 else { return 0 }
        let value = Int(truncatingIfNeeded: buffer &>> UInt64(truncatingIfNeeded: 64 - bits))
        consume(bits)
        return value
    }

    /// One bit. Call `ensure()` first.
    @inline(__always)
    mutating func bit() -> Bool {
        let value = buffer >> 63 != 0
        consume(1)
        return value
    }

    /// The next `bits` (1...16) bits as a signed coefficient (JPEG's EXTEND).
    @inline(__always)
    mutating func signed(_ bits: Int) -> Int {
        let shift = UInt64(truncatingIfNeeded: 64 &- bits) & 63
        let value = Int(truncatingIfNeeded: buffer >> shift)
        buffer &<<= UInt64(truncatingIfNeeded: bits)
        count &-= bits
        // When the top bit is 0 the value is negative: value - (2^bits - 1).
        let negative = (value >> (bits &- 1)) & 1 ^ 1
        return value &- (negative &* ((1 &<< bits) &- 1))
    }

    /// The next 9 bits, the index into a table's lookups. Call `ensure()` first.
    @inline(__always)
    var lookupIndex: Int { Int(truncatingIfNeeded: buffer &>> UInt64(64 - HuffmanTable.lookupBits)) }

    /// Drops `bits` (at most 16) bits already interpreted through `lookupIndex`.
    @inline(__always)
    mutating func skip(_ bits: Int) { consume(bits) }

    /// Decodes one Huffman symbol; `nil` when no code matches. Call `ensure()` first.
    @inline(__always)
    mutating func decode(_ table: HuffmanTable) -> Int? {
        let entry = table.lookup[Int(truncatingIfNeeded: buffer &>> UInt64(64 - HuffmanTable.lookupBits))]
        if entry != 0 {
            consume(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        guard let (symbol, length) = Self.decodeLong(buffer, table) else { return nil }
        consume(length)
        return symbol
    }

    /// The symbol of the code longer than the lookup at the top of `buffer`, and its length.
    /// (Not `mutating`: a call taking the reader `inout` would keep it in memory in the loops.)
    private static func decodeLong(_ buffer: UInt64, _ table: HuffmanTable) -> (symbol: Int, length: Int)? {
        for length in (HuffmanTable.lookupBits + 1)...16 {
            let code = Int32(truncatingIfNeeded: buffer >> UInt64(64 - length))
            if code <= table.maxCode[length] {
                let index = Int(code) + Int(table.valueOffset[length])
                guard index >= 0, index < table.valueCount else { return nil }
                return (Int(table.values[index]), length)
            }
        }
        return nil
    }

    /// At a restart interval's end: drops the buffered bits, skips to the next marker and
    /// consumes it when it is `RST(expected)`. Returns whether it was.
    mutating func restart(expected: Int) -> Bool {
        buffer = 0
        count = 0
        padding = 0
        if !reachedMarker {
            while position < bytes.count {
                if bytes[position] == 0xFF, position + 1 < bytes.count,
                   bytes[position + 1] != 0, bytes[position + 1] != 0xFF {
                    break
                }
                position += 1
            }
        }
        reachedMarker = false
        guard position + 1 < bytes.count, bytes[position] == 0xFF,
              Int(bytes[position + 1]) == 0xD0 + (expected & 7) else {
            return false
        }
        position += 2
        return true
    }
}
