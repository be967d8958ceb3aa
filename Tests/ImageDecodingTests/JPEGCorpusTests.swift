import Foundation
import ImageDecoding
import TestSupport
import XCTest

/// Every corpus JPEG decodes to libjpeg's picture: no channel more than 4 levels off, PSNR at
/// least 45 dB. (Both decoders use the same integer IDCT and upsampling, so most files match
/// exactly; the bound leaves room for rounding, while a real mistake costs far more.)
final class JPEGCorpusTests: XCTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try skipSingleThreadedComputationUnderThreadSanitizer()
    }

    static let maximumDifference = 4
    static let minimumPSNR = 45.0

    func testEveryCorpusFileMatchesLibjpeg() throws {
        let names = try Corpus.jpegNames().filter { !$0.hasPrefix("unsupported-") }
        XCTAssertGreaterThan(names.count, 60, "the corpus is missing; run scripts/make-jpeg-corpus.sh")
        for name in names {
            let reference = try XCTUnwrap(try Corpus.reference(name), "no reference for \(name)")
            let image: RGBImage
            do {
                image = try JPEGDecoder().decode(Corpus.jpeg(name))
            } catch {
                XCTFail("\(name): \(error)")
                continue
            }
            assertClose(image, reference, name)
        }
    }

    /// `decode(_:maxPixelSize:)` with the longer side of a 1/2, 1/4 or 1/8 decode scales in the
    /// IDCT exactly as libjpeg does for that scale (Pillow's `draft`), so the bound is the same.
    func testScaledDecodesMatchLibjpegScaledDecodes() throws {
        let names = try Corpus.referenceNames(containing: ".s")
        XCTAssertGreaterThan(names.count, 50)
        for name in names {
            let reference = try XCTUnwrap(try Corpus.reference(name))
            let source = String(name.prefix(upTo: try XCTUnwrap(name.range(of: ".s")).lowerBound))
            let image = try JPEGDecoder().decode(Corpus.jpeg(source), maxPixelSize: max(reference.width, reference.height))
            assertClose(image, reference, name)
        }
    }

    /// Between the IDCT scales the decoder takes the next larger scale and area-averages down;
    /// the reference is libjpeg's full-size decode area-averaged down by the script (exact
    /// fractional areas, in floating point). Averaging our own full-size decode instead matches
    /// that reference within 1 level, so what remains is the scaled IDCT itself: it keeps the
    /// low frequencies of each block, a different low-pass than averaging full-size pixels,
    /// which shows on these noisy photos with hard lines (measured 36 to 42 dB, mean difference
    /// 1.4 to 2.5 levels). Hence at least 33 dB and a mean of at most 3 levels per channel; a
    /// wrong colour, a swapped plane or a shift by a pixel costs far more.
    func testSizesBetweenScalesAreCloseToTheAveragedReference() throws {
        let names = try Corpus.referenceNames(containing: ".fit")
        XCTAssertEqual(names.count, 4)
        for name in names {
            let reference = try XCTUnwrap(try Corpus.reference(name))
            let parts = name.components(separatedBy: ".fit")
            let size = try XCTUnwrap(Int(parts[1]))
            let image = try JPEGDecoder().decode(Corpus.jpeg(parts[0]), maxPixelSize: size)
            XCTAssertEqual(image.width, reference.width, name)
            XCTAssertEqual(image.height, reference.height, name)
            guard image.width == reference.width, image.height == reference.height else { continue }
            let difference = Difference(image, reference)
            XCTAssertGreaterThanOrEqual(difference.psnr, 33, "\(name): \(difference)")
            XCTAssertLessThanOrEqual(BulkBytes.meanAbsoluteDifference(image.pixels, reference.pixels), 3, "\(name): \(difference)")
        }
    }

    func testMaxPixelSizeAboveThePictureDecodesAtFullSize() throws {
        let name = "pillow-thumbnail-240x180-420"
        let image = try JPEGDecoder().decode(Corpus.jpeg(name), maxPixelSize: 1_000)
        assertClose(image, try XCTUnwrap(try Corpus.reference(name)), name)
    }

    private func assertClose(_ image: RGBImage, _ reference: RGBImage, _ name: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(image.width, reference.width, "\(name) width", file: file, line: line)
        XCTAssertEqual(image.height, reference.height, "\(name) height", file: file, line: line)
        guard image.width == reference.width, image.height == reference.height else { return }
        let difference = Difference(image, reference)
        XCTAssertLessThanOrEqual(difference.maximum, Self.maximumDifference, "\(name): \(difference)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(difference.psnr, Self.minimumPSNR, "\(name): \(difference)", file: file, line: line)
    }
}

