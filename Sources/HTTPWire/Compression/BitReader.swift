/// Reads DEFLATE's bit stream: bits least significant first, bytes in order. Input may arrive
/// in pieces (`append`); a read past what has arrived throws `truncatedBody`, and a reader that
/// took a `mark` before can `restore` it and try again once more input is appended.
struct BitReader {
    private var bytes: [UInt8]
    private var position = 0
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0
    /// Bytes already read and dropped from the front of `bytes` (offsets stay absolute).
    private var dropped = 0

    /// Where the reader is, to go back to when a read runs out of input.
    struct Mark {
        fileprivate let position: Int
        fileprivate let bitBuffer: UInt32
        fileprivate let bitCount: Int
    }

    init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// The offset of the next whole byte in all the input.
    var byteOffset: Int { dropped + position }

    /// Whole bytes not read yet.
    var remainingBytes: Int { bytes.count - position }

    var mark: Mark { Mark(position: position, bitBuffer: bitBuffer, bitCount: bitCount) }

    /// Goes back to `mark` (taken since the last `compact`).
    mutating func restore(_ mark: Mark) {
        position = mark.position
        bitBuffer = mark.bitBuffer
        bitCount = mark.bitCount
    }

    /// More input after what arrived.
    mutating func append(_ more: some Collection<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Drops the bytes read so far (marks taken before are void).
    mutating func compact() {
        guard position > 0 else { return }
        if position == bytes.count {
            bytes.removeAll(keepingCapacity: true)
        } else {
            bytes.removeFirst(position)
        }
        dropped += position
        position = 0
    }

    /// The byte `ahead` positions after the next one (0 past the end).
    func peekByte(_ ahead: Int) -> UInt8 {
        position + ahead < bytes.count ? bytes[position + ahead] : 0
    }

    /// The error of a read past the input that arrived.
    var truncation: HTTPWireError { .truncatedBody(expected: nil, received: dropped + bytes.count) }

    /// Reads `count` (0...16) bits.
    mutating func readBits(_ count: Int) throws(HTTPWireError) -> UInt32 {
        while bitCount < count {
            guard position < bytes.count else { throw truncation }
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
        guard position < bytes.count else { throw truncation }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readLittleEndian32() throws(HTTPWireError) -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(try readByte()) << UInt32(shift) }
        return value
    }

    mutating func readBigEndian32() throws(HTTPWireError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try readByte()) }
        return value
    }

    /// Up to `count` whole bytes of those that arrived (fewer when fewer wait).
    mutating func readAvailableBytes(_ count: Int) -> ArraySlice<UInt8> {
        let taken = min(count, bytes.count - position)
        defer { position += taken }
        return bytes[position..<(position + taken)]
    }
}
