/// A canonical Huffman code (RFC 1951 section 3.2.2) decoded one bit at a time: for each code
/// length, how many codes have it, and the symbols in code order.
struct HuffmanTable: Sendable {
    private var counts = [Int](repeating: 0, count: 16)
    private var symbols: [Int] = []

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
