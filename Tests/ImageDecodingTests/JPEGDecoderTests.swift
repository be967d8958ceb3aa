import Foundation
import ImageDecoding
import XCTest

/// Options and entry points beyond the corpus comparison.
final class JPEGDecoderTests: XCTestCase {
    func testOrientationIsReportedAndAppliedOnlyWhenAsked() throws {
        for value in 1...8 {
            let data = try Corpus.jpeg("exif-orientation-\(value)")
            let orientation = JPEGDecoder.orientation(of: data)
            XCTAssertEqual(orientation.rawValue, UInt8(value))
            let stored = try JPEGDecoder(appliesOrientation: false).decode(data)
            XCTAssertEqual([stored.width, stored.height], [40, 30])
            let upright = try JPEGDecoder().decode(data)
            XCTAssertEqual([upright.width, upright.height], value >= 5 ? [30, 40] : [40, 30])
            XCTAssertEqual(upright == stored, value == 1)
            // Thumbnails turn too, after scaling.
            let thumbnail = try JPEGDecoder().decode(data, maxPixelSize: 20)
            XCTAssertEqual([thumbnail.width, thumbnail.height], value >= 5 ? [15, 20] : [20, 15])
        }
        XCTAssertEqual(JPEGDecoder.orientation(of: try Corpus.jpeg("pillow-16x16-420-q100")), .up)
        XCTAssertEqual(JPEGDecoder.orientation(of: Data([1, 2, 3])), .up)
    }

    func testASliceOfLargerDataDecodesWithOffsetsFromTheSliceStart() throws {
        let file = try Corpus.jpeg("pillow-15x17-422-q90")
        let padded = Data([0xAA, 0xBB, 0xCC]) + file
        let slice = padded[3...]
        XCTAssertEqual(try JPEGDecoder().decode(slice), try JPEGDecoder().decode(file))
        XCTAssertThrowsError(try JPEGDecoder().decode(slice.prefix(file.count - 10))) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.offset, file.count - 10)
        }
    }

    func testThumbnailsKeepTheAspectRatio() throws {
        let data = try Corpus.jpeg("large-photo-640x427-baseline")
        // 80 is exactly the 1/8 IDCT scale, whose shorter side libjpeg rounds up (427 / 8 -> 54);
        // other sizes are averaged down with the shorter side rounded (427 * 70 / 640 -> 47).
        for (size, expected) in [(240, [240, 160]), (80, [80, 54]), (70, [70, 47]), (1, [1, 1]), (640, [640, 427])] {
            let image = try JPEGDecoder().decode(data, maxPixelSize: size)
            XCTAssertEqual([image.width, image.height], expected, "maxPixelSize \(size)")
        }
    }

    func testTheDecoderIsSendableAndDecodesConcurrently() throws {
        let decoder = JPEGDecoder()
        let data = try Corpus.jpeg("pillow-progressive-240x180-420")
        let expected = try decoder.decode(data, maxPixelSize: 60)
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            results.append(try? decoder.decode(data, maxPixelSize: 60))
        }
        XCTAssertEqual(results.all, Array(repeating: expected, count: 8))
    }
}

/// Collects results from several threads.
private final class Results: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var values: [RGBImage?] = []

    func append(_ value: RGBImage?) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [RGBImage?] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
