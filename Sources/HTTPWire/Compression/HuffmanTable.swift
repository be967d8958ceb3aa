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

/// Reads DEFLATE's bit stream: bits least significant first, bytes in order.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The offset of the next whole byte.
    var byteOffset: Int { position }

    /// Whole bytes not read yet.
    var remainingBytes: Int { bytes.count - position }

    /// The byte `ahead` positions after the next one (0 past the end).
    func peekByte(_ ahead: Int) -> UInt8 {
        position + ahead < bytes.count ? bytes[position + ahead] : 0
    }

    /// Reads `count` (0...16) bits.
    mutating func readBits(_ count: Int) throws(HTTPWireError) -> UInt32 {
        while bitCount < count {
            guard position < bytes.count else { throw .truncatedBody(expected: nil, received: bytes.count) }
            bitBuffer |= UInt32(bytes[position]) << UInt32(bitCount)
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << UInt32(count)) - 1)
        bitBuffer >>= UInt32(count)
        bitCount -= count
        return value
    }

    /// Drops the bits left of the current byte.
    mutating func alignToByte() {
        bitBuffer = 0
        bitCount = 0
    }

    mutating func readByte() throws(HTTPWireError) -> UInt8 {
        guard position < bytes.count else { throw .truncatedBody(expected: nil, received: bytes.count) }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readLittleEndian32() throws(HTTPWireError) -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(try readByte()) << UInt32(shift) }
        return value
    }

    mutating func readBytes(_ count: Int) throws(HTTPWireError) -> ArraySlice<UInt8> {
        guard count <= bytes.count - position else { throw .truncatedBody(expected: nil, received: bytes.count) }
        defer { position += count }
        return bytes[position..<(position + count)]
    }
}
