/// A DEFLATE decoder (RFC 1951) for the `gzip` (RFC 1952) and `deflate` (zlib, RFC 1950)
/// content codings, with a hard limit on the output so that a small compressed body cannot
/// expand into gigabytes (a decompression bomb).
///
/// ```swift
/// let body = try Inflater.decode(compressed, coding: .gzip, limit: 50 << 20)
/// ```
public enum Inflater {
    /// A content coding the inflater reads.
    public enum Coding: Sendable, Equatable {
        /// gzip members (header, DEFLATE data, CRC-32 and size checked); several in a row are joined.
        case gzip
        /// `deflate` as RFC 9110 defines it (zlib: header, DEFLATE data, Adler-32 checked); raw
        /// DEFLATE data without the zlib header, which some servers send, is accepted too.
        case deflate

        /// The coding named by a `Content-Encoding` value (`gzip`, `x-gzip`, `deflate`), nil for others.
        public init?(name: String) {
            switch name.lowercased() {
            case "gzip", "x-gzip": self = .gzip
            case "deflate": self = .deflate
            default: return nil
            }
        }
    }

    /// Decodes `input` in `coding`. Throws `HTTPWireError.bodyTooLarge(limit:)` as soon as the
    /// output would pass `limit` bytes, and `invalidContentCoding(offset:)` for malformed data.
    public static func decode(_ input: [UInt8], coding: Coding, limit: Int) throws(HTTPWireError) -> [UInt8] {
        var reader = BitReader(input)
        var output = InflateOutput(limit: limit)
        switch coding {
        case .gzip:
            repeat {
                let start = output.bytes.count
                try readGzipHeader(&reader)
                try inflate(&reader, into: &output)
                reader.alignToByte()
                let crc = try reader.readLittleEndian32()
                let size = try reader.readLittleEndian32()
                let member = output.bytes[start...]
                guard crc == CRC32.checksum(member), size == UInt32(truncatingIfNeeded: member.count) else {
                    throw .invalidContentCoding(offset: reader.byteOffset)
                }
            } while reader.remainingBytes >= 2 && reader.peekByte(0) == 0x1F && reader.peekByte(1) == 0x8B
        case .deflate:
            let first = reader.peekByte(0), second = reader.peekByte(1)
            let zlib = reader.remainingBytes >= 2 && first & 0x0F == 8 && first >> 4 <= 7
                && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
            if zlib {
                _ = try reader.readByte()
                let flags = try reader.readByte()
                guard flags & 0x20 == 0 else { throw .invalidContentCoding(offset: 1) }
                try inflate(&reader, into: &output)
                reader.alignToByte()
                var adler: UInt32 = 0
                for _ in 0..<4 { adler = adler << 8 | UInt32(try reader.readByte()) }
                guard adler == Adler32.checksum(output.bytes) else { throw .invalidContentCoding(offset: reader.byteOffset) }
            } else {
                try inflate(&reader, into: &output)
            }
        }
        return output.bytes
    }

    private static func readGzipHeader(_ reader: inout BitReader) throws(HTTPWireError) {
        let start = reader.byteOffset
        guard try reader.readByte() == 0x1F, try reader.readByte() == 0x8B, try reader.readByte() == 8 else {
            throw .invalidContentCoding(offset: start)
        }
        let flags = try reader.readByte()
        guard flags & 0xE0 == 0 else { throw .invalidContentCoding(offset: start + 3) }
        for _ in 0..<6 { _ = try reader.readByte() }
        if flags & 0x04 != 0 {
            let length = Int(try reader.readByte()) | Int(try reader.readByte()) << 8
            for _ in 0..<length { _ = try reader.readByte() }
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while try reader.readByte() != 0 {}
        }
        if flags & 0x02 != 0 { for _ in 0..<2 { _ = try reader.readByte() } }
    }

    /// Decodes DEFLATE blocks up to and including the final one.
    private static func inflate(_ reader: inout BitReader, into output: inout InflateOutput) throws(HTTPWireError) {
        var last = false
        while !last {
            last = try reader.readBits(1) == 1
            switch try reader.readBits(2) {
            case 0: try storedBlock(&reader, into: &output)
            case 1: try codedBlock(&reader, into: &output, literals: HuffmanTable.fixedLiterals, distances: HuffmanTable.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables(&reader)
                try codedBlock(&reader, into: &output, literals: literals, distances: distances)
            default: throw .invalidContentCoding(offset: reader.byteOffset)
            }
        }
    }

    private static func storedBlock(_ reader: inout BitReader, into output: inout InflateOutput) throws(HTTPWireError) {
        reader.alignToByte()
        let length = Int(try reader.readByte()) | Int(try reader.readByte()) << 8
        let complement = Int(try reader.readByte()) | Int(try reader.readByte()) << 8
        guard length == ~complement & 0xFFFF else { throw .invalidContentCoding(offset: reader.byteOffset) }
        try output.append(contentsOf: try reader.readBytes(length))
    }

    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                            35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                             3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                              257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                              8193, 12289, 16385, 24577]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                               7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private static func codedBlock(_ reader: inout BitReader, into output: inout InflateOutput,
                                   literals: HuffmanTable, distances: HuffmanTable) throws(HTTPWireError) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                try output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < lengthBase.count else { throw .invalidContentCoding(offset: reader.byteOffset) }
            let length = lengthBase[index] + Int(try reader.readBits(lengthExtra[index]))
            let code = try distances.decode(&reader)
            guard code < distanceBase.count else { throw .invalidContentCoding(offset: reader.byteOffset) }
            let distance = distanceBase[code] + Int(try reader.readBits(distanceExtra[code]))
            guard distance <= output.bytes.count else { throw .invalidContentCoding(offset: reader.byteOffset) }
            try output.copy(distance: distance, length: length)
        }
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static func dynamicTables(_ reader: inout BitReader) throws(HTTPWireError) -> (HuffmanTable, HuffmanTable) {
        let literalCount = Int(try reader.readBits(5)) + 257
        let distanceCount = Int(try reader.readBits(5)) + 1
        let codeLengthCount = Int(try reader.readBits(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .invalidContentCoding(offset: reader.byteOffset) }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[codeLengthOrder[index]] = Int(try reader.readBits(3))
        }
        let codeLengths = try HuffmanTable(lengths: codeLengthLengths, offset: reader.byteOffset)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengths.decode(&reader)
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw .invalidContentCoding(offset: reader.byteOffset) }
                lengths += repeatElement(previous, count: 3 + Int(try reader.readBits(2)))
            case 17:
                lengths += repeatElement(0, count: 3 + Int(try reader.readBits(3)))
            default:
                lengths += repeatElement(0, count: 11 + Int(try reader.readBits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] != 0 else {
            throw .invalidContentCoding(offset: reader.byteOffset)
        }
        return (try HuffmanTable(lengths: Array(lengths[..<literalCount]), offset: reader.byteOffset),
                try HuffmanTable(lengths: Array(lengths[literalCount...]), offset: reader.byteOffset))
    }
}

/// The decoded bytes so far, refusing to grow past the limit.
struct InflateOutput {
    let limit: Int
    var bytes: [UInt8] = []

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    mutating func append(_ byte: UInt8) throws(HTTPWireError) {
        guard bytes.count < limit else { throw .bodyTooLarge(limit: limit) }
        bytes.append(byte)
    }

    mutating func append(contentsOf slice: ArraySlice<UInt8>) throws(HTTPWireError) {
        guard slice.count <= limit - bytes.count else { throw .bodyTooLarge(limit: limit) }
        bytes.append(contentsOf: slice)
    }

    /// Repeats `length` bytes from `distance` back (the copy may overlap what it writes).
    mutating func copy(distance: Int, length: Int) throws(HTTPWireError) {
        guard length <= limit - bytes.count else { throw .bodyTooLarge(limit: limit) }
        let start = bytes.count - distance
        for index in 0..<length { bytes.append(bytes[start + index]) }
    }
}
