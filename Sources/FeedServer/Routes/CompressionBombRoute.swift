import HTTPWire

/// `/bomb/{n}?coding=gzip|deflate`: n zero bytes compressed about 160 to 1 (`gzip` by default,
/// `deflate` as zlib), framed by `Content-Length` and labelled with `Content-Encoding`: a
/// decompression bomb made on the spot, valid to its checksums, for clients' limits. The body
/// is DEFLATE with the fixed codes: one literal zero, then copies of 258 bytes from one back.
enum CompressionBombRoute {
    static let prefix = "bomb"
    /// The largest decoded size served (1 GiB).
    static let maxDecodedBytes = 1 << 30

    static func handle(_ route: RouteContext, decodedBytes text: String) -> Connection.Disposition {
        guard let count = Int(text), (1...maxDecodedBytes).contains(count) else {
            return route.badRequest("decoded size must be 1...\(maxDecodedBytes), got \(text)")
        }
        let coding = route.query["coding"] ?? "gzip"
        let body: [UInt8]
        switch coding {
        case "gzip": body = gzip(zeros: count)
        case "deflate": body = zlib(zeros: count)
        default: return route.badRequest("coding must be gzip or deflate, got \(coding)")
        }
        var response = Responses.response(status: 200, contentType: "application/octet-stream", body: body)
        response.head.headers.add(name: "Content-Encoding", value: coding)
        return route.respond(response)
    }

    /// A gzip member holding `count` zero bytes.
    static func gzip(zeros count: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        bytes += deflate(zeros: count)
        bytes += littleEndian(crc32(zeros: count))
        bytes += littleEndian(UInt32(truncatingIfNeeded: count))
        return bytes
    }

    /// A zlib stream (the `deflate` content coding) holding `count` zero bytes.
    static func zlib(zeros count: Int) -> [UInt8] {
        // Adler-32 of zeros: the sum stays 1, the sum of sums is the count.
        let adler = UInt32(count % 65_521) << 16 | 1
        return [0x78, 0x01] + deflate(zeros: count) + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// One final DEFLATE block with the fixed codes (RFC 1951 §3.2.6) of `count` zero bytes.
    static func deflate(zeros count: Int) -> [UInt8] {
        // Each copy is the same 13 bits, so they are reversed once and written whole: the body
        // is made on the server's loop, and must come at once even in a sanitized debug build.
        let copy = BitWriter.reversed(0xC5, bits: 8)  // length symbol 285: 258 bytes, no extra bits
            | BitWriter.reversed(0, bits: 5) << 8  // distance symbol 0: one back
        let zero = BitWriter.reversed(0x30, bits: 8)  // literal 0
        var writer = BitWriter(capacity: count / 258 * 13 / 8 + 16)
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE 01: fixed codes
        writer.write(zero, bits: 8)
        var left = count - 1
        while left >= 258 {
            writer.write(copy, bits: 13)
            left -= 258
        }
        for _ in 0..<left { writer.write(zero, bits: 8) }
        writer.write(BitWriter.reversed(0, bits: 7), bits: 7)  // end of block (256)
        return writer.finish()
    }

    /// CRC-32 (gzip's) of `count` zero bytes without reading them: appending a zero byte is a
    /// linear map of the register, so n of them is that map to the n-th power, squared up.
    static func crc32(zeros count: Int) -> UInt32 {
        // The map of one zero bit, as the images of the register's 32 bits.
        var map = (0..<32).map { bit -> UInt32 in
            let value = UInt32(1) << UInt32(bit)
            return value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        for _ in 0..<3 { map = square(map) }  // one zero byte
        var register: UInt32 = 0xFFFF_FFFF
        var remaining = count
        while remaining > 0 {
            if remaining & 1 == 1 { register = apply(map, register) }
            map = square(map)
            remaining >>= 1
        }
        return ~register
    }

    private static func apply(_ map: [UInt32], _ vector: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<32 where vector >> UInt32(bit) & 1 == 1 { result ^= map[bit] }
        return result
    }

    private static func square(_ map: [UInt32]) -> [UInt32] {
        map.map { apply(map, $0) }
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// DEFLATE's bit order: values from their lowest bit, Huffman codes from their highest
    /// (given here `reversed`).
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var pending: UInt64 = 0
        private var used: UInt64 = 0

        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        /// Appends the low `bits` (at most 32) of `value`, lowest first.
        mutating func write(_ value: UInt32, bits: UInt32) {
            pending |= UInt64(value) << used
            used += UInt64(bits)
            while used >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                used -= 8
            }
        }

        /// A Huffman code of `bits` bits in the order `write` sends it.
        static func reversed(_ code: UInt32, bits: UInt32) -> UInt32 {
            var reversed: UInt32 = 0
            for index in 0..<bits { reversed |= (code >> index & 1) << (bits - 1 - index) }
            return reversed
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(truncatingIfNeeded: pending)) }
            return bytes
        }
    }
}
