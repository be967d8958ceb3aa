import Foundation
import ImageDecoding
import TestSupport
import XCTest

/// Malformed, truncated, unsupported and oversized inputs, made from real corpus files with
/// real byte edits: each gives a typed error naming the place, never a trap or a wrong picture.
final class JPEGDecoderErrorTests: XCTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try skipSingleThreadedComputationUnderThreadSanitizer()
    }

    private func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Corpus.jpeg(name)) }

    private func decodingError(_ bytes: [UInt8], decoder: JPEGDecoder = JPEGDecoder(),
                               file: StaticString = #filePath, line: UInt = #line) -> ImageDecodingError? {
        do {
            _ = try decoder.decode(Data(bytes))
            XCTFail("decoded", file: file, line: line)
            return nil
        } catch let error as ImageDecodingError {
            return error
        } catch {
            XCTFail("untyped error \(error)", file: file, line: line)
            return nil
        }
    }

    func testDataThatIsNotAJPEGIsRefusedAtByteZero() {
        XCTAssertEqual(decodingError([]), ImageDecodingError(.notJPEG, offset: 0))
        XCTAssertEqual(decodingError(Array("GIF89a".utf8)), ImageDecodingError(.notJPEG, offset: 0))
    }

    func testArithmeticCodingIsRefusedAtItsFrameHeader() throws {
        let file = try bytes("unsupported-arithmetic")
        let frame = try XCTUnwrap(JPEGMarkers.frameHeader(in: file))
        XCTAssertEqual(file[frame + 1], 0xC9, "cjpeg -arithmetic writes SOF9")
        XCTAssertEqual(decodingError(file), ImageDecodingError(.unsupported(.arithmeticCoding), offset: frame))
    }

    func testLosslessHierarchicalAnd12BitFramesAreRefusedAtTheirFrameHeader() throws {
        let file = try bytes("pillow-16x16-420-q100")
        let frame = try XCTUnwrap(JPEGMarkers.frameHeader(in: file))
        var lossless = file
        lossless[frame + 1] = 0xC3
        XCTAssertEqual(decodingError(lossless), ImageDecodingError(.unsupported(.lossless), offset: frame))
        var hierarchical = file
        hierarchical[frame + 1] = 0xC5
        XCTAssertEqual(decodingError(hierarchical), ImageDecodingError(.unsupported(.hierarchical), offset: frame))
        var twelveBit = file
        twelveBit[frame + 4] = 12
        XCTAssertEqual(decodingError(twelveBit), ImageDecodingError(.unsupported(.precision(12)), offset: frame))
        var zeroHeight = file
        zeroHeight[frame + 5] = 0
        zeroHeight[frame + 6] = 0
        XCTAssertEqual(decodingError(zeroHeight), ImageDecodingError(.invalidDimensions, offset: frame))
    }

    func testTruncationAnywhereGivesAnErrorWithinTheData() throws {
        let file = try bytes("pillow-progressive-31x47-422")
        let scanData = try XCTUnwrap(JPEGMarkers.scanData(in: file))
        // Every third cut point (every one is slow under the thread sanitizer in CI).
        for cut in stride(from: 0, to: file.count - 2, by: 3) {
            guard let error = decodingError(Array(file[..<cut])) else { continue }
            XCTAssertLessThanOrEqual(error.offset, cut, "cut at \(cut)")
            if cut > scanData { XCTAssertEqual(error, ImageDecodingError(.truncated, offset: cut), "cut at \(cut)") }
            // Past the first scan header, allowPartial returns a full-size picture.
            let partial = try? JPEGDecoder(allowPartial: true).decode(Data(file[..<cut]))
            XCTAssertEqual(partial.map { [$0.width, $0.height] }, cut >= scanData ? [31, 47] : nil, "cut at \(cut)")
        }
    }

    func testAllowPartialKeepsTheRowsDecodedBeforeTheCutAndLeavesTheRestGrey() throws {
        let name = "large-photo-640x427-baseline"
        let file = try bytes(name)
        let reference = try XCTUnwrap(try Corpus.reference(name))
        let scanData = try XCTUnwrap(JPEGMarkers.scanData(in: file))
        let cut = scanData + (file.count - scanData) / 2
        XCTAssertEqual(decodingError(Array(file[..<cut])), ImageDecodingError(.truncated, offset: cut))

        let image = try JPEGDecoder(allowPartial: true).decode(Data(file[..<cut]))
        XCTAssertEqual(image.width, 640)
        XCTAssertEqual(image.height, 427)
        let rowBytes = 640 * 3
        // Half the data holds roughly half the rows; the first third are certainly complete
        // (and away from the upsampling context of the last decoded row).
        let top = 427 / 3 * rowBytes
        XCTAssertEqual(Array(image.pixels[..<top]), Array(reference.pixels[..<top]))
        let bottom = Array(image.pixels[(image.pixels.count - 20 * rowBytes)...])
        XCTAssertEqual(bottom, [UInt8](repeating: 128, count: bottom.count), "undecoded rows are mid-grey")
        XCTAssertNotEqual(Array(reference.pixels[(reference.pixels.count - 20 * rowBytes)...]), bottom)
    }

    func testAProgressiveFileCutAfterItsFirstScansStillShowsThePicture() throws {
        let name = "pillow-progressive-240x180-420"
        let file = try bytes(name)
        let reference = try XCTUnwrap(try Corpus.reference(name))
        // Cut in the fourth scan: DC and a few AC bands are complete, refinements are missing.
        let scans = JPEGMarkers.entropyMarkers(0xDA, in: file, from: 2)
        XCTAssertGreaterThan(scans.count, 4)
        let image = try JPEGDecoder(allowPartial: true).decode(Data(file[..<(scans[3] + 40)]))
        let difference = Difference(image, reference)
        XCTAssertGreaterThan(difference.psnr, 15, "\(difference)")
        XCTAssertLessThan(difference.psnr, Difference(try JPEGDecoder().decode(Data(file)), reference).psnr)
    }

    func testAnOutOfSequenceRestartMarkerIsReportedWhereItIs() throws {
        var file = try bytes("cjpeg-restart-1row")
        let scanData = try XCTUnwrap(JPEGMarkers.scanData(in: file))
        let restart = try XCTUnwrap(JPEGMarkers.entropyMarkers(0xD1, in: file, from: scanData).first)
        file[restart + 1] = 0xD4
        XCTAssertEqual(decodingError(file), ImageDecodingError(.badRestartMarker, offset: restart))
        let partial = try JPEGDecoder(allowPartial: true).decode(Data(file))
        XCTAssertEqual([partial.width, partial.height], [70, 50])
    }

    func testAScanNamingAnUndefinedHuffmanTableIsRefused() throws {
        var file = try bytes("pillow-16x16-420-q100")
        let sos = try XCTUnwrap(JPEGMarkers.first(0xDA, in: file))
        file[sos + 6] = 0x33  // first component: DC and AC table 3, never defined
        XCTAssertEqual(decodingError(file), ImageDecodingError(.missingHuffmanTable, offset: sos))
    }

    func testFlippedBytesGiveAPictureOrATypedErrorNeverATrap() throws {
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return Int(random >> 1)
        }
        for name in ["pillow-15x17-422-q90", "pillow-progressive-31x47-422", "cjpeg-sample-4x1", "magick-ycck-50x40",
                     "cjpeg-progressive-restart-2blocks"] {
            let file = try bytes(name)
            for _ in 0..<40 {
                var mutated = file
                for _ in 0..<(1 + next() % 4) { mutated[next() % mutated.count] = UInt8(truncatingIfNeeded: next()) }
                for decoder in [JPEGDecoder(), JPEGDecoder(allowPartial: true)] {
                    do {
                        let image = try decoder.decode(Data(mutated), maxPixelSize: 1 + next() % 80)
                        XCTAssertEqual(image.pixels.count, image.width * image.height * 3)
                    } catch let error as ImageDecodingError {
                        XCTAssertTrue((0...mutated.count).contains(error.offset), "\(error)")
                    }
                }
            }
        }
    }

    func testPicturesOverThePixelLimitAreRefusedBeforeAllocating() throws {
        let file = try bytes("pillow-thumbnail-240x180-420")
        let frame = try XCTUnwrap(JPEGMarkers.frameHeader(in: file))
        XCTAssertEqual(decodingError(file, decoder: JPEGDecoder(maximumPixelCount: 40_000)),
                       ImageDecodingError(.imageTooLarge(pixels: 43_200, limit: 40_000), offset: frame))
        XCTAssertNoThrow(try JPEGDecoder(maximumPixelCount: 43_200).decode(Data(file)))

        // A 65535 x 65535 header (4.3 gigapixels) in a file of a few hundred bytes: the default
        // 64-megapixel limit refuses it at once.
        var bomb = file
        for at in [frame + 5, frame + 6, frame + 7, frame + 8] { bomb[at] = 0xFF }
        XCTAssertEqual(decodingError(bomb),
                       ImageDecodingError(.imageTooLarge(pixels: 65_535 * 65_535, limit: 64_000_000), offset: frame))
    }

    func testThousandsOfScansAreRefused() throws {
        let file = try bytes("pillow-grey-progressive-64x64")
        let scans = JPEGMarkers.entropyMarkers(0xDA, in: file, from: 2)
        // The first scan (DC, first pass) with its data, repeated: each repeat is a valid scan.
        let firstScan = Array(file[scans[0]..<scans[1]])
        var bomb = Array(file[..<scans[0]])
        for _ in 0...1_000 { bomb += firstScan }
        bomb += [0xFF, 0xD9]
        XCTAssertEqual(decodingError(bomb)?.reason, .tooManyScans(limit: 1_000))
    }

    func testMaxPixelSizeMustBePositive() throws {
        let file = try Corpus.jpeg("pillow-16x16-420-q100")
        XCTAssertThrowsError(try JPEGDecoder().decode(file, maxPixelSize: 0)) { error in
            XCTAssertEqual(error as? ImageDecodingError, ImageDecodingError(.invalidMaxPixelSize(0), offset: 0))
        }
    }

    func testTheDescriptionNamesTheProblemAndTheOffset() {
        let error = ImageDecodingError(.malformedSegment(marker: 0xC4), offset: 77)
        XCTAssertEqual(error.description, "malformed JPEG segment FF C4 at byte 77")
        XCTAssertEqual(error.localizedDescription, error.description)
    }
}
