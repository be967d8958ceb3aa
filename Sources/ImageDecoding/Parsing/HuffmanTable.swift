/// One Huffman table from a DHT segment, prepared for decoding: a 9-bit lookup for the short
/// codes, the canonical `maxCode` / value-offset search for the long ones.
///
/// The tables live in `byteCount` bytes of memory the decoding owns (its `ReusedBlock`) and
/// keeps while the table is in use, so the decoding loop reads them without bounds checks or
/// reference counting; every index into them is masked or checked. A value of pointers, so the
/// scan loops copy it without retaining anything.
struct HuffmanTable {
    /// Codes up to this many bits decode with one lookup.
    static let lookupBits = 9

    /// `1 << lookupBits` entries indexed by the next 9 bits: `length << 8 | symbol`, or 0 when
    /// the code is longer.
    let lookup: UnsafeMutablePointer<UInt16>
    /// For each code length 0...17: the largest code of that length, -1 when there is none.
    let maxCode: UnsafeMutablePointer<Int32>
    /// For each code length 0...17: add to a code of that length to get its index in `values`.
    let valueOffset: UnsafeMutablePointer<Int32>
    /// 256 entries: the symbols in code order, zeros after them.
    let values: UnsafeMutablePointer<UInt8>
    /// How many symbols `values` holds.
    let valueCount: Int
    /// For AC tables, `1 << lookupBits` entries indexed by the next 9 bits: when a code and its
    /// extra bits fit in those 9 bits and code a coefficient, `value << 16 | run << 8 | bits
    /// used`; otherwise 0 (decode the symbol the long way). libjpeg-turbo's fast AC path.
    let coefficientLookup: UnsafeMutablePointer<Int32>

    /// Bytes of memory one table's lookups take.
    static let byteCount = 3_584

    /// Builds the decoding tables from the counts, symbols and canonical codes of `table` in
    /// `storage`, `byteCount` bytes aligned to 64.
    init(_ table: HuffmanCodeTable, storage: UnsafeMutableRawPointer) {
        var lookup = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        var maxCode = [Int32](repeating: -1, count: 18)
        var valueOffset = [Int32](repeating: 0, count: 18)
        var index = 0
        for length in 1...16 {
            let count = Int(table.counts[length - 1])
            guard count > 0 else { continue }
            valueOffset[length] = Int32(index) - Int32(table.codes[index].code)
            maxCode[length] = Int32(table.codes[index + count - 1].code)
            if length <= Self.lookupBits {
                let shift = Self.lookupBits - length
                for position in index..<(index + count) {
                    let first = Int(table.codes[position].code) << shift
                    for fill in first..<(first + (1 << shift)) {
                        lookup[fill] = UInt16(length << 8) | UInt16(table.symbols[position])
                    }
                }
            }
            index += count
        }
        let symbols = table.symbols
        // 1,024 + 2,048 + 72 + 72 + 256 bytes, each part aligned for its type.
        self.lookup = storage.bindMemory(to: UInt16.self, capacity: lookup.count)
        self.lookup.initialize(from: lookup, count: lookup.count)
        coefficientLookup = (storage + 1_024).bindMemory(to: Int32.self, capacity: lookup.count)
        coefficientLookup.initialize(repeating: 0, count: lookup.count)
        self.maxCode = (storage + 3_072).bindMemory(to: Int32.self, capacity: 18)
        self.maxCode.initialize(from: maxCode, count: 18)
        self.valueOffset = (storage + 3_144).bindMemory(to: Int32.self, capacity: 18)
        self.valueOffset.initialize(from: valueOffset, count: 18)
        self.values = (storage + 3_216).bindMemory(to: UInt8.self, capacity: 256)
        self.values.initialize(repeating: 0, count: 256)
        self.values.update(from: symbols, count: symbols.count)
        valueCount = symbols.count
        for bits in 0..<lookup.count where lookup[bits] != 0 {
            let length = Int(lookup[bits] >> 8), symbol = Int(lookup[bits] & 0xFF)
            let run = symbol >> 4, size = symbol & 15
            guard size != 0, length + size <= Self.lookupBits else { continue }
            let extra = (bits >> (Self.lookupBits - length - size)) & ((1 << size) - 1)
            let value = extra < (1 << (size - 1)) ? extra - (1 << size) + 1 : extra
            coefficientLookup[bits] = Int32(value << 16 | run << 8 | (length + size))
        }
    }
}
