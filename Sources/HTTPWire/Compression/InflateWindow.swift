/// The inflater's output: the bytes decoded since the caller last took them, after the last
/// 32 KiB before them (what back-references may reach), refusing to grow past `limit` bytes in all.
struct InflateWindow {
    /// The farthest a DEFLATE back-reference reaches.
    static let history = 32 * 1024

    /// The most bytes decoded in all (a decompression bomb stops here).
    var limit: Int
    /// All bytes decoded so far.
    private(set) var total = 0
    /// Bytes decoded since the current gzip or zlib member began.
    private var memberTotal = 0
    private var bytes: [UInt8] = []
    /// Where the bytes not taken yet begin.
    private var fresh = 0
    /// Where the bytes not yet added to a checksum begin.
    private var summed = 0

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Bytes decoded since the current member began.
    var memberBytes: Int { memberTotal }

    /// Bytes decoded and not taken yet.
    var freshCount: Int { bytes.count - fresh }

    mutating func append(_ byte: UInt8) throws(HTTPWireError) {
        guard total < limit else { throw .bodyTooLarge(limit: limit) }
        bytes.append(byte)
        total += 1
        memberTotal += 1
    }

    mutating func append(contentsOf slice: ArraySlice<UInt8>) throws(HTTPWireError) {
        guard slice.count <= limit - total else { throw .bodyTooLarge(limit: limit) }
        bytes.append(contentsOf: slice)
        total += slice.count
        memberTotal += slice.count
    }

    /// Repeats `length` bytes from `distance` back (the copy may overlap what it writes);
    /// `offset` names the input's place in a failure.
    mutating func copy(distance: Int, length: Int, offset: Int) throws(HTTPWireError) {
        guard distance <= memberTotal, distance <= bytes.count else { throw .invalidContentCoding(offset: offset) }
        guard length <= limit - total else { throw .bodyTooLarge(limit: limit) }
        let start = bytes.count - distance
        for index in 0..<length { bytes.append(bytes[start + index]) }
        total += length
        memberTotal += length
    }

    /// Starts a new gzip member: back-references cannot reach before it.
    mutating func beginMember() {
        memberTotal = 0
    }

    /// The bytes decoded since the last call, for a checksum.
    mutating func unsummed() -> ArraySlice<UInt8> {
        defer { summed = bytes.count }
        return bytes[summed...]
    }

    /// The bytes not taken yet, handed over (after `unsummed()` took them for the checksum);
    /// what back-references may still reach is kept.
    mutating func take() -> [UInt8] {
        let before = bytes.count
        let taken: [UInt8]
        if fresh == 0 {
            taken = bytes
            bytes = Array(bytes.suffix(Self.history))
        } else {
            taken = Array(bytes[fresh...])
            if bytes.count > 4 * Self.history { bytes.removeFirst(bytes.count - Self.history) }
        }
        summed = max(0, summed - (before - bytes.count))
        fresh = bytes.count
        return taken
    }
}
