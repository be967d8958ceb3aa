import Foundation
import ImageDecoding

/// A small baseline JPEG encoder (ITU T.81 sequential DCT, Huffman coded, 8-bit YCbCr, JFIF),
/// enough for `FeedServer` to serve real pictures: the standard's example quantization and
/// Huffman tables, scaled by `quality`, with 4:2:0 or 4:4:4 chroma.
///
/// ```swift
/// let jpeg = BaselineJPEGEncoder(quality: 85).encode(width: 2, height: 1, rgb: [255, 0, 0, 0, 0, 255])
/// ```
public struct BaselineJPEGEncoder: Sendable {
    /// 1...100, as in libjpeg: 50 uses the standard's tables as they are, higher divides less.
    public let quality: Int
    /// Whether chroma is kept at half resolution both ways (4:2:0) rather than full (4:4:4).
    public let chromaSubsampling: Bool

    /// An encoder at `quality` (clamped to 1...100).
    public init(quality: Int = 85, chromaSubsampling: Bool = true) {
        self.quality = min(100, max(1, quality))
        self.chromaSubsampling = chromaSubsampling
    }

    /// The JPEG file of a `width` x `height` picture given as RGB bytes, row-major, three per
    /// pixel (`rgb.count == width * height * 3`; both sides 1...65535).
    public func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        precondition((1...65_535).contains(width) && (1...65_535).contains(height) && rgb.count == width * height * 3,
                     "encode needs 1...65535 pixels each way and width * height * 3 bytes")
        let luminanceTable = Self.scaled(Self.luminanceQuantization, quality: quality)
        let chrominanceTable = Self.scaled(Self.chrominanceQuantization, quality: quality)
        let planes = Self.planes(width: width, height: height, rgb: rgb)

        var out: [UInt8] = [0xFF, 0xD8]
        out += Self.segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        out += Self.segment(0xDB, [0x00] + Self.zigzag.map { luminanceTable[$0] } + [0x01] + Self.zigzag.map { chrominanceTable[$0] })
        let lumaSampling: UInt8 = chromaSubsampling ? 0x22 : 0x11
        out += Self.segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3,
                                   1, lumaSampling, 0, 2, 0x11, 1, 3, 0x11, 1])
        var huffman: [UInt8] = []
        for (id, table) in [(UInt8(0x00), HuffmanCodeTable.luminanceDC), (0x10, .luminanceAC),
                            (0x01, .chrominanceDC), (0x11, .chrominanceAC)] {
            huffman += [id] + table.counts + table.symbols
        }
        out += Self.segment(0xC4, huffman)
        out += Self.segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0])

        var bits = JPEGBitWriter(reservingCapacity: width * height / 2)
        var previousDC = [0, 0, 0]
        let mcuSize = chromaSubsampling ? 16 : 8
        for mcuY in stride(from: 0, to: height, by: mcuSize) {
            for mcuX in stride(from: 0, to: width, by: mcuSize) {
                for blockY in stride(from: 0, to: mcuSize, by: 8) {
                    for blockX in stride(from: 0, to: mcuSize, by: 8) {
                        let block = planes.block(0, x: mcuX + blockX, y: mcuY + blockY, step: 1)
                        Self.encodeBlock(block, quantizer: luminanceTable, dc: .luminanceDC, ac: .luminanceAC,
                                         previousDC: &previousDC[0], into: &bits)
                    }
                }
                let step = chromaSubsampling ? 2 : 1
                for component in 1...2 {
                    let block = planes.block(component, x: mcuX, y: mcuY, step: step)
                    Self.encodeBlock(block, quantizer: chrominanceTable, dc: .chrominanceDC, ac: .chrominanceAC,
                                     previousDC: &previousDC[component], into: &bits)
                }
            }
        }
        bits.flush()
        out += bits.bytes
        out += [0xFF, 0xD9]
        return out
    }

    // MARK: - Blocks

    /// Y, Cb and Cr level-shifted by -128, full resolution.
    private struct Planes {
        let width: Int
        let height: Int
        var samples: [[Float]]

        /// The 8x8 block of `component` whose top-left pixel is (`x`, `y`), every `step`-th pixel
        /// averaged over `step` x `step`; pixels past the edge repeat the last row or column.
        func block(_ component: Int, x: Int, y: Int, step: Int) -> [Float] {
            var block = [Float](repeating: 0, count: 64)
            let plane = samples[component]
            let weight = 1 / Float(step * step)
            for row in 0..<8 {
                for column in 0..<8 {
                    var sum: Float = 0
                    for dy in 0..<step {
                        let sy = min(height - 1, y + row * step + dy)
                        for dx in 0..<step {
                            sum += plane[sy * width + min(width - 1, x + column * step + dx)]
                        }
                    }
                    block[row * 8 + column] = sum * weight
                }
            }
            return block
        }
    }

    private static func planes(width: Int, height: Int, rgb: [UInt8]) -> Planes {
        let count = width * height
        var y = [Float](repeating: 0, count: count)
        var cb = [Float](repeating: 0, count: count)
        var cr = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let r = Float(rgb[index * 3]), g = Float(rgb[index * 3 + 1]), b = Float(rgb[index * 3 + 2])
            y[index] = 0.299 * r + 0.587 * g + 0.114 * b - 128
            cb[index] = -0.168_736 * r - 0.331_264 * g + 0.5 * b
            cr[index] = 0.5 * r - 0.418_688 * g - 0.081_312 * b
        }
        return Planes(width: width, height: height, samples: [y, cb, cr])
    }

    private static func encodeBlock(
        _ block: [Float], quantizer: [UInt8], dc: HuffmanCodeTable, ac: HuffmanCodeTable,
        previousDC: inout Int, into bits: inout JPEGBitWriter
    ) {
        let coefficients = forwardDCT(block)
        var quantized = [Int](repeating: 0, count: 64)
        let zigzag = Self.zigzag
        for position in 0..<64 {
            let natural = zigzag[position]
            quantized[position] = Int((coefficients[natural] / Float(quantizer[natural])).rounded())
        }
        let difference = quantized[0] - previousDC
        previousDC = quantized[0]
        let dcSize = magnitudeSize(difference)
        write(symbol: UInt8(dcSize), table: dc, into: &bits)
        bits.write(magnitudeBits(difference, size: dcSize), length: dcSize)

        var zeros = 0
        for position in 1..<64 {
            let value = quantized[position]
            if value == 0 {
                zeros += 1
                continue
            }
            while zeros > 15 {
                write(symbol: 0xF0, table: ac, into: &bits)
                zeros -= 16
            }
            let size = magnitudeSize(value)
            write(symbol: UInt8(zeros << 4 | size), table: ac, into: &bits)
            bits.write(magnitudeBits(value, size: size), length: size)
            zeros = 0
        }
        if zeros > 0 { write(symbol: 0x00, table: ac, into: &bits) }
    }

    private static func write(symbol: UInt8, table: HuffmanCodeTable, into bits: inout JPEGBitWriter) {
        let entry = table.bySymbol[Int(symbol)]
        bits.write(entry.code, length: entry.length)
    }

    /// The bits needed for `value`'s magnitude (0 for 0), capped at 11 as baseline allows.
    private static func magnitudeSize(_ value: Int) -> Int {
        var magnitude = min(abs(value), 2_047)
        var size = 0
        while magnitude > 0 {
            size += 1
            magnitude >>= 1
        }
        return size
    }

    /// `value` as JPEG writes it in `size` bits: itself when positive, one's complement when negative.
    private static func magnitudeBits(_ value: Int, size: Int) -> UInt32 {
        let clamped = max(-2_047, min(2_047, value))
        return UInt32(truncatingIfNeeded: clamped >= 0 ? clamped : clamped + (1 << size) - 1)
    }

    /// The 2-D DCT-II of an 8x8 block (rows then columns), scaled as T.81 defines it.
    private static func forwardDCT(_ block: [Float]) -> [Float] {
        // Tables are read once per block and loops count plain indices: in a debug build each
        // read of a global and each step of a generic iterator looks up runtime data under a
        // lock, which under the thread sanitizer made encoding the demo pictures crawl.
        let cosines = Self.cosines
        var rows = [Float](repeating: 0, count: 64)
        for y in 0..<8 {
            for u in 0..<8 {
                var sum: Float = 0
                for x in 0..<8 { sum += block[y * 8 + x] * cosines[u * 8 + x] }
                rows[y * 8 + u] = sum
            }
        }
        var out = [Float](repeating: 0, count: 64)
        for u in 0..<8 {
            for v in 0..<8 {
                var sum: Float = 0
                for y in 0..<8 { sum += rows[y * 8 + u] * cosines[v * 8 + y] }
                out[v * 8 + u] = sum
            }
        }
        return out
    }

    /// `C(u)/2 * cos((2x + 1) u pi / 16)`, `C(0) = 1/sqrt(2)`, at `u * 8 + x`.
    private static let cosines: [Float] = (0..<64).map { index in
        let u = index / 8, x = index % 8
        let scale = u == 0 ? 1 / 2.0.squareRoot() : 1.0
        return Float(scale / 2 * cos(Double(2 * x + 1) * Double(u) * Double.pi / 16))
    }

    // MARK: - Tables and segments

    /// Natural (row-major) index of each zigzag position.
    static let zigzag: [Int] = {
        var order: [Int] = []
        for sum in 0..<15 {
            let range = max(0, sum - 7)...min(7, sum)
            let rows = sum % 2 == 0 ? Array(range.reversed()) : Array(range)
            for row in rows { order.append(row * 8 + (sum - row)) }
        }
        return order
    }()

    /// The standard's example luminance table (T.81 K.1), natural order.
    static let luminanceQuantization: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// The standard's example chrominance table (T.81 K.2), natural order.
    static let chrominanceQuantization: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
    ] + [Int](repeating: 99, count: 32)

    /// libjpeg's quality scaling of a base table, each entry 1...255.
    static func scaled(_ base: [Int], quality: Int) -> [UInt8] {
        let scale = quality < 50 ? 5_000 / quality : 200 - quality * 2
        return base.map { UInt8(min(255, max(1, ($0 * scale + 50) / 100))) }
    }

    /// A marker segment: `FF marker`, the two-byte length (including itself), the payload.
    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
