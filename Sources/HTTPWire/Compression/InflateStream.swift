/// A DEFLATE decoder (RFC 1951) fed its input in pieces, for a body decoded as it arrives: feed
/// the compressed bytes as they come, take the decoded bytes a bounded step at a time, and say
/// when the input ended. Its output, in all, stays within `limit` (a decompression bomb stops
/// there, having never been held whole). `Inflater.decode` is the same decoder over a whole body.
///
/// ```swift
/// var inflater = InflateStream(coding: .gzip, limit: 50 << 20)
/// inflater.feed(piece)
/// while case let chunk = try inflater.next(maximum: 64 << 10), !chunk.isEmpty { consume(chunk) }
/// inflater.finishInput()   // then `next` until it returns nothing: it throws if the data was cut
/// ```
public struct InflateStream: Sendable {
    /// The coding it reads.
    public let coding: Inflater.Coding
    /// The most decoded bytes in all: past it `next` throws `HTTPWireError.bodyTooLarge(limit:)`.
    /// It may change between steps (a ratio to the compressed bytes so far, say).
    public var limit: Int {
        get { window.limit }
        set { window.limit = max(0, newValue) }
    }

    /// Compressed bytes fed so far.
    public private(set) var bytesIn = 0
    /// Decoded bytes so far (handed out or about to be).
    public var bytesOut: Int { window.total }
    /// Whether `finishInput()` was called.
    public private(set) var inputEnded = false
    /// Whether the coded data ended (its last checksum matched); input after it is ignored.
    public var isFinished: Bool { stage == .done }

    private enum Stage: Equatable {
        /// A gzip member's header, or (`deflate`) the zlib header if there is one.
        case memberHeader
        case blockHeader
        case stored(remaining: Int)
        /// A Huffman-coded block (1: fixed codes, 2: its own).
        case coded
        case trailer
        /// After a gzip member: another, or the end.
        case nextMember
        case done
    }

    private var reader = BitReader()
    private var window: InflateWindow
    private var stage = Stage.memberHeader
    private var lastBlock = false
    private var zlib = false
    private var literals = HuffmanTable.fixedLiterals
    private var distances = HuffmanTable.fixedDistances
    /// The running CRC-32 (gzip) or Adler-32 (zlib) of the current member's output.
    private var checksum: UInt32 = 0

    /// A decoder of `coding` whose output may not pass `limit` bytes.
    public init(coding: Inflater.Coding, limit: Int) {
        self.coding = coding
        self.window = InflateWindow(limit: limit)
    }

    /// More compressed bytes, after those fed before.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        guard !inputEnded, !bytes.isEmpty else { return }
        bytesIn += bytes.count
        guard stage != .done else { return }
        reader.append(bytes)
    }

    /// No more input comes: `next` decodes what is left, then throws if the data was cut short.
    public mutating func finishInput() {
        inputEnded = true
    }

    /// Decodes what was fed, stopping once about `maximum` bytes (at most 258 more) are decoded:
    /// the bytes, or none when it needs more input or the data ended (`isFinished`). Throws
    /// `invalidContentCoding(offset:)` for malformed data, `bodyTooLarge(limit:)` past `limit`,
    /// and `truncatedBody` when the input ended before the data did.
    public mutating func next(maximum: Int) throws(HTTPWireError) -> [UInt8] {
        reader.compact()
        let room = max(1, maximum)
        while window.freshCount < room, stage != .done {
            let mark = reader.mark
            do throws(HTTPWireError) {
                guard try step(room: room) else { break }
            } catch {
                guard case .truncatedBody = error, !inputEnded else { throw error }
                reader.restore(mark)
                break
            }
        }
        guard window.freshCount > 0 else { return [] }
        sum()
        return window.take()
    }

    // MARK: Steps

    /// Takes one step: a header, a block's start, part of a block or a trailer. A step that runs
    /// out of input throws `truncatedBody` having changed nothing but the reader's place (the
    /// caller restores it); a coded block's keeps the symbols it finished and returns false.
    private mutating func step(room: Int) throws(HTTPWireError) -> Bool {
        switch stage {
        case .memberHeader:
            try memberHeader()
        case .blockHeader:
            try blockHeader()
        case .stored(let remaining):
            guard reader.remainingBytes > 0 else { throw reader.truncation }
            let piece = reader.readAvailableBytes(min(remaining, room - window.freshCount))
            try window.append(contentsOf: piece)
            stage = remaining == piece.count ? endOfBlock() : .stored(remaining: remaining - piece.count)
        case .coded:
            return try codedSymbols(room: room)
        case .trailer:
            try trailer()
        case .nextMember:
            if reader.remainingBytes < 2, !inputEnded { throw reader.truncation }
            if reader.remainingBytes >= 2, reader.peekByte(0) == 0x1F, reader.peekByte(1) == 0x8B {
                stage = .memberHeader
            } else {
                stage = .done
            }
        case .done:
            break
        }
        return true
    }

    private mutating func memberHeader() throws(HTTPWireError) {
        switch coding {
        case .gzip:
            try gzipHeader()
        case .deflate:
            if reader.remainingBytes < 2, !inputEnded { throw reader.truncation }
            let first = reader.peekByte(0), second = reader.peekByte(1)
            zlib = reader.remainingBytes >= 2 && first & 0x0F == 8 && first >> 4 <= 7
                && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
            if zlib {
                _ = try reader.readByte()
                let flags = try reader.readByte()
                guard flags & 0x20 == 0 else { throw .invalidContentCoding(offset: 1) }
                checksum = Adler32.initial
            }
        }
        window.beginMember()
        stage = .blockHeader
    }

    private mutating func gzipHeader() throws(HTTPWireError) {
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
        checksum = 0
    }

    private mutating func blockHeader() throws(HTTPWireError) {
        let last = try reader.readBits(1) == 1
        switch try reader.readBits(2) {
        case 0:
            reader.alignToByte()
            let length = Int(try reader.readByte()) | Int(try reader.readByte()) << 8
            let complement = Int(try reader.readByte()) | Int(try reader.readByte()) << 8
            guard length == ~complement & 0xFFFF else { throw .invalidContentCoding(offset: reader.byteOffset) }
            lastBlock = last
            stage = length == 0 ? endOfBlock() : .stored(remaining: length)
        case 1:
            lastBlock = last
            literals = HuffmanTable.fixedLiterals
            distances = HuffmanTable.fixedDistances
            stage = .coded
        case 2:
            let (literals, distances) = try dynamicTables()
            lastBlock = last
            self.literals = literals
            self.distances = distances
            stage = .coded
        default:
            throw .invalidContentCoding(offset: reader.byteOffset)
        }
    }

    /// What follows a block: the next, or the member's trailer.
    private func endOfBlock() -> Stage {
        guard lastBlock else { return .blockHeader }
        switch coding {
        case .gzip: return .trailer
        case .deflate: return zlib ? .trailer : .done
        }
    }

    private mutating func trailer() throws(HTTPWireError) {
        reader.alignToByte()
        sum()
        switch coding {
        case .gzip:
            let crc = try reader.readLittleEndian32()
            let size = try reader.readLittleEndian32()
            guard crc == checksum, size == UInt32(truncatingIfNeeded: window.memberBytes) else {
                throw .invalidContentCoding(offset: reader.byteOffset)
            }
            stage = .nextMember
        case .deflate:
            guard try reader.readBigEndian32() == checksum else { throw .invalidContentCoding(offset: reader.byteOffset) }
            stage = .done
        }
    }

    /// Adds the bytes decoded since the last call to the member's checksum.
    private mutating func sum() {
        let bytes = window.unsummed()
        switch coding {
        case .gzip: checksum = CRC32.update(checksum, bytes)
        case .deflate where zlib: checksum = Adler32.update(checksum, bytes)
        case .deflate: break
        }
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

    /// Decodes symbols of the current block until its end or `room` decoded bytes (true), or the
    /// input's end (false: the symbol it was in is read again with more input).
    private mutating func codedSymbols(room: Int) throws(HTTPWireError) -> Bool {
        while window.freshCount < room {
            let mark = reader.mark
            let symbol: Int
            var match: (length: Int, distance: Int)?
            do throws(HTTPWireError) {
                symbol = try literals.decode(&reader)
                if symbol > 256 {
                    let index = symbol - 257
                    guard index < Self.lengthBase.count else { throw .invalidContentCoding(offset: reader.byteOffset) }
                    let length = Self.lengthBase[index] + Int(try reader.readBits(Self.lengthExtra[index]))
                    let code = try distances.decode(&reader)
                    guard code < Self.distanceBase.count else { throw .invalidContentCoding(offset: reader.byteOffset) }
                    match = (length, Self.distanceBase[code] + Int(try reader.readBits(Self.distanceExtra[code])))
                }
            } catch {
                // Out of input mid-symbol: back to its start; the symbols before it stay decoded.
                guard case .truncatedBody = error, !inputEnded else { throw error }
                reader.restore(mark)
                return false
            }
            if symbol < 256 {
                try window.append(UInt8(symbol))
            } else if let match {
                try window.copy(distance: match.distance, length: match.length, offset: reader.byteOffset)
            } else {
                stage = endOfBlock()
                return true
            }
        }
        return true
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private mutating func dynamicTables() throws(HTTPWireError) -> (HuffmanTable, HuffmanTable) {
        let literalCount = Int(try reader.readBits(5)) + 257
        let distanceCount = Int(try reader.readBits(5)) + 1
        let codeLengthCount = Int(try reader.readBits(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .invalidContentCoding(offset: reader.byteOffset) }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[Self.codeLengthOrder[index]] = Int(try reader.readBits(3))
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
