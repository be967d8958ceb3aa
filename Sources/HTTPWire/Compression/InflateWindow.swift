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
    /// The kept bytes are the first `count`; the rest is room to decode into, grown by doubling
    /// so that writing a byte or a match is a store, not an array append.
    private var bytes: [UInt8] = []
    private var count = 0
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
    var freshCount: Int { count - fresh }

    /// Makes room for `more` bytes after the kept ones.
    @inline(__always)
    private mutating func reserve(_ more: Int) {
        if bytes.count - count < more { grow(more) }
    }

    /// A new array, twice the size at least, the kept bytes copied once and only the rest zeroed.
    @inline(never)
    private mutating func grow(_ more: Int) {
        let size = max(count + more, 2 * bytes.count, 1024), kept = count
        bytes = bytes.withUnsafeBufferPointer { old in
            [UInt8](unsafeUninitializedCapacity: size) { new, initialized in
                var copied = 0
                if let from = old.baseAddress, let to = new.baseAddress {
                    UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: kept)
                    copied = kept
                }
                new[copied...].initialize(repeating: 0)
                initialized = new.count
            }
        }
        precondition(bytes.count - count >= more, "the window grew by \(bytes.count) for \(more) more bytes")
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) throws(HTTPWireError) {
        guard total < limit else { throw .bodyTooLarge(limit: limit) }
        reserve(1)
        bytes[count] = byte
        count += 1
        total += 1
        memberTotal += 1
    }

    mutating func append(contentsOf slice: ArraySlice<UInt8>) throws(HTTPWireError) {
        guard slice.count <= limit - total else { throw .bodyTooLarge(limit: limit) }
        reserve(slice.count)
        bytes.replaceSubrange(count..<(count + slice.count), with: slice)
        count += slice.count
        total += slice.count
        memberTotal += slice.count
    }

    /// Whether a back-reference `distance` bytes back stays within the member's output.
    func reaches(_ distance: Int) -> Bool {
        distance <= memberTotal && distance <= count
    }

    /// Repeats `length` bytes from `distance` back (the copy may overlap what it writes);
    /// `offset` names the input's place in a failure.
    @inline(__always)
    mutating func copy(distance: Int, length: Int, offset: Int) throws(HTTPWireError) {
        guard reaches(distance) else { throw .invalidContentCoding(offset: offset) }
        guard length <= limit - total else { throw .bodyTooLarge(limit: limit) }
        reserve(length + 8)
        let start = count - distance
        // In range: `start` is at least 0 (the distance reaches no further back than the kept
        // bytes), and `reserve` made room for the `length` bytes written after them and for the
        // up to 7 more the 8-byte steps write (room that the next bytes overwrite).
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var from = base + start, to = base + start + distance
            let end = to + length
            if distance >= 8 {
                // Each 8 bytes read were written before (they end at least at `to`).
                while to < end {
                    to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    from += 8
                    to += 8
                }
            } else {
                while to < end {
                    to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self)
                    from += 1
                    to += 1
                }
            }
        }
        count += length
        total += length
        memberTotal += length
    }

    /// Starts a new gzip member: back-references cannot reach before it.
    mutating func beginMember() {
        memberTotal = 0
    }

    /// The bytes decoded since the last call, for a checksum.
    mutating func unsummed() -> ArraySlice<UInt8> {
        defer { summed = count }
        return bytes[summed..<count]
    }

    /// The bytes not taken yet, handed over (after `unsummed()` took them for the checksum);
    /// what back-references may still reach is kept.
    mutating func take() -> [UInt8] {
        let before = count
        let taken: [UInt8]
        if fresh == 0 {
            bytes.removeLast(bytes.count - count)
            taken = bytes
            bytes = Array(bytes.suffix(Self.history))
            count = bytes.count
        } else {
            taken = Array(bytes[fresh..<count])
            if count > 4 * Self.history {
                // The last `history` bytes move to the front; the room after them stays.
                let dropped = count - Self.history
                bytes.withUnsafeMutableBytes { buffer in
                    guard let base = buffer.baseAddress else { return }
                    // In range and apart: `dropped` is over 3 * history and `count` within the array.
                    base.copyMemory(from: base + dropped, byteCount: Self.history)
                }
                count = Self.history
            }
        }
        summed = max(0, summed - (before - count))
        fresh = count
        return taken
    }
}
