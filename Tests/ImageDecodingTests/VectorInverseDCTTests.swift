import Foundation
@testable import ImageDecoding
import TestSupport
import XCTest

/// The vectorized 8x8 IDCT gives libjpeg's islow samples exactly for the blocks 8-bit JPEG
/// encoders produce, and never traps on the rest (coefficients beyond 16 bits wrap, as in
/// libjpeg-turbo's SIMD IDCT).
final class VectorInverseDCTTests: XCTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try skipSingleThreadedComputationUnderThreadSanitizer()
    }

    private var counter: UInt64 = 0

    /// Dense blocks an encoder can produce from any picture: the forward DCT of random samples
    /// (half of them at 0 or 255), quantized by random steps of 1...255 and dequantized.
    func testQuantizedTransformsOfRandomPicturesMatchIslowExactly() {
        for trial in 0..<1_000 {
            let samples = (0..<64).map { _ -> Int in
                switch next() % 4 {
                case 0: 0
                case 1: 255
                default: Int(next() % 256)
                }
            }
            let steps = (0..<64).map { _ in Int32(1 + next() % (trial % 2 == 0 ? 255 : 16)) }
            let block = zip(Self.forwardDCT(samples), steps).map { coefficient, step in
                Int32((Double(coefficient) / Double(step)).rounded()) * step
            }
            assertSameSamples(block, "trial \(trial)")
        }
    }

    /// Dense blocks of small random coefficients, as heavily quantized noise leaves them.
    func testRandomDenseBlocksMatchIslowExactly() {
        for trial in 0..<1_000 {
            let block = (0..<64).map { _ in Int32(Int(next() % 601) - 300) }
            assertSameSamples(block, "trial \(trial)")
        }
    }

    /// Sparse blocks as real scans leave them: a few low frequencies, then zeros.
    func testSparseBlocksMatchIslowExactly() {
        for trial in 0..<2_000 {
            var block = [Int32](repeating: 0, count: 64)
            let last = Int(next() % 64)
            for position in 0...last where next() % 3 == 0 {
                block[ZigZag.order[position]] = Int32(Int(next() % 801) - 400)
            }
            assertSameSamples(block, "trial \(trial)")
        }
    }

    /// The forward DCTs of extreme pictures (flat black and white, one-pixel checkerboards,
    /// stripes, a single bright pixel) come back exactly as islow gives them, and
    /// within one level of the picture itself.
    func testForwardTransformsOfExtremePicturesComeBack() {
        let pictures: [(String, (Int, Int) -> Int)] = [
            ("black", { _, _ in 0 }), ("white", { _, _ in 255 }),
            ("checkerboard", { x, y in (x + y) % 2 == 0 ? 0 : 255 }),
            ("vertical stripes", { x, _ in x % 2 == 0 ? 255 : 0 }),
            ("horizontal halves", { _, y in y < 4 ? 0 : 255 }),
            ("one pixel", { x, y in x == 3 && y == 5 ? 255 : 0 }),
            ("ramp", { x, y in (x * 8 + y) * 4 }),
        ]
        for (name, picture) in pictures {
            let samples = (0..<64).map { picture($0 % 8, $0 / 8) }
            let block = Self.forwardDCT(samples)
            let output = assertSameSamples(block, name)
            for (index, sample) in output.enumerated() {
                XCTAssertLessThanOrEqual(abs(Int(sample) - samples[index]), 1, "\(name) at \(index)")
            }
        }
    }

    /// A block with only a DC coefficient fills with exactly `fillDC`'s value, as the scanners
    /// rely on when they skip the transform for such blocks.
    func testDCOnlyBlocksGiveExactlyTheFillValue() {
        for dc in stride(from: -1_100, through: 1_100, by: 7) {
            var block = [Int32](repeating: 0, count: 64)
            block[0] = Int32(dc)
            var filled = [UInt8](repeating: 0, count: 64)
            InverseDCT.fillDC(Int32(dc), size: 8, output: &filled, stride: 8)
            XCTAssertEqual(assertSameSamples(block, "dc \(dc)"), filled, "dc \(dc)")
        }
    }

    /// Corrupt data can carry coefficients at the limits of `Int32`: the arithmetic wraps and
    /// every row is written inside the block, whatever the values.
    func testCoefficientsAtTheInt32LimitsDoNotTrap() {
        let values: [Int32] = [.max, .min, .max / 3, -65_535 * 2_047]
        for value in values {
            for pattern in 0..<3 {
                let block = (0..<64).map { index -> Int32 in
                    switch pattern {
                    case 0: value
                    case 1: index % 2 == 0 ? value : 0
                    default: index == 63 || index == 0 ? value : 0
                    }
                }
                // A 10-byte stride with guard bytes: only 8 bytes of each row may change.
                var output = [UInt8](repeating: 0xA5, count: 80)
                block.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { output in
                        VectorInverseDCT.transform(input.baseAddress.unsafelyUnwrapped,
                                                   output: output.baseAddress.unsafelyUnwrapped, stride: 10)
                    }
                }
                for row in 0..<8 {
                    XCTAssertEqual(output[row * 10 + 8], 0xA5, "value \(value), pattern \(pattern), row \(row)")
                    XCTAssertEqual(output[row * 10 + 9], 0xA5, "value \(value), pattern \(pattern), row \(row)")
                }
            }
        }
    }

    /// The next of a fixed pseudo-random sequence (a multiplicative hash of a counter), so a
    /// failing block can be reproduced.
    private func next() -> UInt64 {
        counter &+= 1
        let hash = counter &* 0x9E37_79B9_7F4A_7C15
        return hash ^ (hash >> 29)
    }

    /// Runs the vector transform and the reference on `block` and checks they agree; returns
    /// the vector transform's samples.
    @discardableResult
    private func assertSameSamples(_ block: [Int32], _ message: String,
                                   file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        var vector = [UInt8](repeating: 0, count: 64)
        block.withUnsafeBufferPointer { input in
            VectorInverseDCT.transform(input.baseAddress.unsafelyUnwrapped, output: &vector, stride: 8)
        }
        XCTAssertEqual(vector, ReferenceIslow.samples(block), message, file: file, line: line)
        return vector
    }

    /// `cos((2x + 1) u pi / 16)` at index `u * 8 + x`.
    private static let cosines: [Double] = (0..<64).map { index in
        let angle = Double(2 * (index % 8) + 1) * Double(index / 8) * Double.pi / 16
        return cos(angle)
    }

    /// The JPEG forward DCT of 64 samples (row-major), rounded: the coefficients the IDCT takes.
    private static func forwardDCT(_ samples: [Int]) -> [Int32] {
        (0..<64).map { index in
            let u = index % 8, v = index / 8
            var sum = 0.0
            for y in 0..<8 {
                for x in 0..<8 {
                    let sample = Double(samples[y * 8 + x] - 128)
                    sum += sample * cosines[u * 8 + x] * cosines[v * 8 + y]
                }
            }
            let cu: Double = u == 0 ? 0.5.squareRoot() : 1
            let cv: Double = v == 0 ? 0.5.squareRoot() : 1
            return Int32((sum * cu * cv / 4).rounded())
        }
    }
}
