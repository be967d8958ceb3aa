@testable import ImageDecoding
import TestSupport
import XCTest

/// The computed YCbCr conversion gives exactly libjpeg's table values (`jdcolor.c`, which
/// `ColorTables` holds) for every Cb and Cr, at the luma values where clamping starts.
final class ColorConversionTests: XCTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try skipSingleThreadedComputationUnderThreadSanitizer()
    }

    /// libjpeg's table lookup for one pixel: the plain version the computed one must equal.
    private static func reference(_ y: UInt8, _ cb: UInt8, _ cr: UInt8) -> [UInt8] {
        let tables = ColorTables.shared
        let luma = Int32(y), blue = Int(cb), red = Int(cr)
        return [UInt8(clamping: luma + tables.crToRed[red]),
                UInt8(clamping: luma + ((tables.cbToGreen[blue] + tables.crToGreen[red]) >> 16)),
                UInt8(clamping: luma + tables.cbToBlue[blue])]
    }

    private func convert(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 3 * y.count)
        y.withUnsafeBufferPointer { y in
            cb.withUnsafeBufferPointer { cb in
                cr.withUnsafeBufferPointer { cr in
                    out.withUnsafeMutableBufferPointer { out in
                        ColorConversion.yCbCr(y.baseAddress.unsafelyUnwrapped, cb.baseAddress.unsafelyUnwrapped,
                                              cr.baseAddress.unsafelyUnwrapped, out.baseAddress.unsafelyUnwrapped,
                                              y.count)
                    }
                }
            }
        }
        return out
    }

    private func assertMatchesTables(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8], _ message: String,
                                     line: UInt = #line) {
        let out = convert(y, cb, cr)
        for x in y.indices where Array(out[3 * x..<3 * x + 3]) != Self.reference(y[x], cb[x], cr[x]) {
            XCTFail("\(message), x \(x): Y \(y[x]) Cb \(cb[x]) Cr \(cr[x]) gave \(Array(out[3 * x..<3 * x + 3])), "
                    + "tables give \(Self.reference(y[x], cb[x], cr[x]))", line: line)
            return
        }
    }

    /// Every (Cb, Cr) pair, one row of 256 Cb values per Cr, at the extreme and middle lumas.
    func testEveryChromaPairMatchesLibjpegTablesAtExtremeLumas() {
        let cb = (0...255).map { UInt8($0) }
        for luma: UInt8 in [0, 1, 100, 127, 128, 200, 254, 255] {
            for cr in 0...255 {
                assertMatchesTables([UInt8](repeating: luma, count: 256), cb,
                                    [UInt8](repeating: UInt8(cr), count: 256), "Y \(luma) Cr \(cr)")
            }
        }
    }

    /// Random rows of every width from 1 to 70 (the vector loop's remainders included).
    func testRandomRowsOfEveryWidthMatchLibjpegTables() {
        var generator = SystemRandomNumberGenerator()
        for width in 1...70 {
            for trial in 0..<20 {
                let y = (0..<width).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let cb = (0..<width).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let cr = (0..<width).map { _ in UInt8.random(in: 0...255, using: &generator) }
                assertMatchesTables(y, cb, cr, "width \(width) trial \(trial)")
            }
        }
    }
}
