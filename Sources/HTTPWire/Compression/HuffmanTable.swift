/// A canonical Huffman code (RFC 1951 section 3.2.2): for each code length, how many codes have
/// it, and the symbols in code order, read one bit at a time where the input may run out; and a
/// lookup table on the next `primaryBits` bits for the fast loop, which decodes a code longer
/// than that from the buffered bits one at a time (such codes are rare: each has a probability
/// under 2^-primaryBits).
struct HuffmanTable: Sendable {
    /// The bits the lookup table is indexed by.
    static let primaryBits = 10
    private var counts = [Int](repeating: 0, count: 16)
    private var symbols: [Int] = []
    /// For each value of the next `primaryBits` bits (the first lowest), the symbol whose code
    /// they begin with, shifted left 4, or'ed with the code's length; 0 when the code is longer
    /// (or none is: an incomplete code's gap).
    private var primary: [UInt16] = []

    /// Builds the code from each symbol's code length (0: unused); throws for an over-full code.
    init(lengths: [Int], offset: Int) throws(HTTPWireError) {
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1..<16 {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw .invalidContentCoding(offset: offset) }
        }
        var starts = [Int](repeating: 0, count: 16)
        for length in 1..<15 { starts[length + 1] = starts[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[starts[length]] = symbol
            starts[length] += 1
        }
        primary = Self.lookupTable(counts: counts, symbols: symbols)
    }

    /// The primary table: each code no longer than `primaryBits`, bit-reversed (DEFLATE sends a
    /// code's first bit lowest), fills every entry whose low bits it is.
    private static func lookupTable(counts: [Int], symbols: [Int]) -> [UInt16] {
        let size = 1 << primaryBits
        var table = [UInt16](repeating: 0, count: size)
        var code = 0, index = 0
        for length in 1...primaryBits {
            for _ in 0..<counts[length] {
                var reversed = 0
                for bit in 0..<length where code >> bit & 1 == 1 { reversed |= 1 << (length - 1 - bit) }
                let entry = UInt16(truncatingIfNeeded: symbols[index] << 4 | length)
                for slot in stride(from: reversed, to: size, by: 1 << length) { table[slot] = entry }
                code += 1
                index += 1
            }
            code <<= 1
        }
        return table
    }

    /// The symbol the buffered `bits` begin with (the first lowest; at least 15 valid) and its
    /// code's length, nil when they begin with no code.
    @inline(__always)
    func lookup(_ bits: UInt64) -> (symbol: Int, length: Int)? {
        let entry = primary[Int(truncatingIfNeeded: bits) & ((1 << Self.primaryBits) - 1)]
        guard entry == 0 else { return (Int(entry >> 4), Int(entry & 15)) }
        return longCode(bits)
    }

    /// A code longer than `primaryBits` (or none), decoded from buffered bits one at a time.
    private func longCode(_ bits: UInt64) -> (symbol: Int, length: Int)? {
        var bits = bits
        var code = 0, first = 0, index = 0
        for length in 1..<16 {
            code |= Int(bits & 1)
            bits >>= 1
            let count = counts[length]
            if code - first < count { return (symbols[index + code - first], length) }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        return nil
    }

    /// Reads one symbol.
    func decode(_ reader: inout BitReader) throws(HTTPWireError) -> Int {
        var code = 0, first = 0, index = 0
        for length in 1..<16 {
            code |= Int(try reader.readBits(1))
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .invalidContentCoding(offset: reader.byteOffset)
    }

    /// The fixed literal/length code of block type 1.
    static let fixedLiterals: HuffmanTable = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        // The fixed lengths form a complete code; building it cannot fail.
        return (try? HuffmanTable(lengths: lengths, offset: 0)) ?? HuffmanTable()
    }()

    /// The fixed distance code of block type 1.
    static let fixedDistances: HuffmanTable = (try? HuffmanTable(lengths: [Int](repeating: 5, count: 30), offset: 0)) ?? HuffmanTable()

    private init() {}
}
