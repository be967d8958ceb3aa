import FeedServer
import Foundation
import XCTest

/// The demo pictures: a baseline JPEG per photo, reproducible, and the image fault routes.
final class ImageRouteTests: FeedServerTestCase {
    private let photoFile = "65535/54000000007_0a1b2c3d4e_m.jpg"

    /// The markers of a JPEG file in order, up to the start of the scan, and the SOF0 payload.
    private func markers(_ bytes: [UInt8]) -> (list: [UInt8], frame: [UInt8]) {
        var list: [UInt8] = []
        var frame: [UInt8] = []
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            list.append(marker)
            if marker == 0xC0 { frame = Array(bytes[(index + 4)..<min(bytes.count, index + 2 + length)]) }
            if marker == 0xDA { break }
            index += 2 + length
        }
        return (list, frame)
    }

    func testTheEncoderWritesABaselineJFIFFileOfTheGivenSize() {
        var pixels: [UInt8] = []
        for index in 0..<(37 * 21) {
            pixels += [UInt8(index % 37 * 6), UInt8(index / 37 * 12), 128]
        }
        for subsampling in [true, false] {
            let jpeg = BaselineJPEGEncoder(quality: 90, chromaSubsampling: subsampling).encode(width: 37, height: 21, rgb: pixels)
            XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8])
            XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9])
            let (list, frame) = markers(jpeg)
            XCTAssertEqual(list, [0xE0, 0xDB, 0xC0, 0xC4, 0xDA])
            // precision 8, height 21, width 37, three components, luma sampling 2x2 or 1x1
            XCTAssertEqual(Array(frame.prefix(6)), [8, 0, 21, 0, 37, 3])
            XCTAssertEqual(frame.count, 15)
            if frame.count == 15 { XCTAssertEqual(frame[7], subsampling ? 0x22 : 0x11) }
        }
    }

    func testTheEntropyCodedDataStuffsEveryFFByte() throws {
        let noisy = DemoPicture(seed: 99, width: 64, height: 48)
        let jpeg = BaselineJPEGEncoder(quality: 100).encode(width: 64, height: 48, rgb: noisy.pixels())
        let scanStart = try XCTUnwrap((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let scanLength = Int(jpeg[scanStart + 2]) << 8 | Int(jpeg[scanStart + 3])
        let data = jpeg[(scanStart + 2 + scanLength)..<(jpeg.count - 2)]
        XCTAssertFalse(data.isEmpty)
        for index in data.indices where data[index] == 0xFF {
            XCTAssertEqual(data[index + 1], 0x00, "0xFF at \(index) is not stuffed")
        }
    }

    func testAPictureDependsOnlyOnItsName() {
        let first = DemoPicture(name: photoFile)
        XCTAssertEqual(first.width, 240)
        XCTAssertTrue([160, 180, 240].contains(first.height))
        XCTAssertEqual(first.jpeg(), DemoPicture(name: photoFile).jpeg())
        XCTAssertNotEqual(first.pixels(), DemoPicture(name: "65535/54000000014_ffffffffff_m.jpg").pixels())
        let pixels = first.pixels()
        XCTAssertEqual(pixels.count, first.width * first.height * 3)
        XCTAssertGreaterThan(Set(pixels).count, 16, "a picture, not a flat colour")
    }

    func testTheImageRouteServesTheJPEGOfTheName() throws {
        let server = try makeServer()
        let response = try get(server, "/images/\(photoFile)")
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(response.head.headers["Content-Type"], "image/jpeg")
        XCTAssertEqual(response.body, DemoPicture(name: photoFile).jpeg())
        XCTAssertEqual(server.imageRequestCount, 1)
    }

    func testTheFeedsMediaURLsPointAtTheServersImages() throws {
        let server = try makeServer(.init(itemsPerPage: 3))
        let feed = try json(get(server, "/services/feeds/photos_public.gne?format=json&nojsoncallback=1"))
        let items = try XCTUnwrap(feed["items"] as? [[String: Any]])
        let media = items.compactMap { ($0["media"] as? [String: String])?["m"] }
        XCTAssertEqual(media.count, 3)
        for url in media {
            XCTAssertTrue(url.hasPrefix("http://127.0.0.1:\(server.port)/images/65535/") && url.hasSuffix("_m.jpg"), url)
            let path = try XCTUnwrap(URL(string: url)?.path)
            let response = try get(server, path)
            XCTAssertEqual(response.head.status, 200)
            XCTAssertEqual(Array(response.body.prefix(2)), [0xFF, 0xD8])
        }
        XCTAssertEqual(server.imageRequestCount, 3)
    }

    func testTruncatedServesTheFirstHalfOfTheFile() throws {
        let server = try makeServer()
        let whole = DemoPicture(name: photoFile).jpeg()
        let response = try get(server, "/images/truncated/\(photoFile)")
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(response.body, Array(whole.prefix(whole.count / 2)))
        XCTAssertNotEqual(Array(response.body.suffix(2)), [0xFF, 0xD9])
    }

    func testNotJPEGServesAnHTMLPageLabelledAsAJPEG() throws {
        let server = try makeServer()
        let response = try get(server, "/images/not-jpeg/\(photoFile)")
        XCTAssertEqual(response.head.headers["Content-Type"], "image/jpeg")
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
    }

    func testSlowWaitsThenServesThePicture() throws {
        let server = try makeServer()
        let started = ContinuousClock.now
        let response = try get(server, "/images/slow/300/\(photoFile)")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(300))
        XCTAssertEqual(response.body, DemoPicture(name: photoFile).jpeg())
        XCTAssertEqual(server.abandonedImageCount, 0)
        XCTAssertEqual(try get(server, "/images/slow/x/\(photoFile)").head.status, 400)
    }

    func testAClientClosingDuringASlowPictureIsCountedAsAbandoned() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.request("GET", "/images/slow/10000/\(photoFile)")
        let deadline = ContinuousClock.now + .seconds(5)
        while server.imageRequestCount == 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        client.close()
        while server.abandonedImageCount == 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(server.abandonedImageCount, 1)
    }
}
