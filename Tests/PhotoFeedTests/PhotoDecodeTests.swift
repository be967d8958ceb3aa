import FeedServer
import Foundation
import PhotoFeed
import TestSupport
import XCTest

final class PhotoDecodeTests: LeakCheckingTestCase {
    /// A small Flickr-shaped feed whose single item's title is `title` as raw JSON string content.
    private func feed(title: String, jsonp: Bool = false) -> Data {
        let body = """
            {"title":"Uploads","link":"https:\\/\\/www.flickr.com\\/photos\\/","description":"","modified":"2024-01-01T00:00:00Z","generator":"https:\\/\\/www.flickr.com","items":[{"title":"\(title)","link":"https:\\/\\/www.flickr.com\\/photos\\/x\\/1\\/","media":{"m":"https:\\/\\/live.staticflickr.com\\/1_m.jpg"},"date_taken":"2024-01-01T00:00:00-08:00","description":" <p>a<\\/p> ","published":"2024-01-01T00:00:00Z","author":"nobody@flickr.com (\\"x\\")","author_id":"1@N00","tags":""}]}
            """
        return Data((jsonp ? "jsonFlickrFeed(\(body))" : body).utf8)
    }

    private func title(of data: Data) throws -> String {
        try XCTUnwrap(Photo.decode(feed: data).items.first).title
    }

    func testHostileTitlesDecodeToTheExactExpectedText() throws {
        XCTAssertEqual(try title(of: feed(title: #"I\'ll be there"#)), "I'll be there")
        XCTAssertEqual(try title(of: feed(title: #"C:\\"#)), "C:\\")
        XCTAssertEqual(try title(of: feed(title: #"\uD83D\uDE00 smile"#)), "😀 smile")
        XCTAssertEqual(try title(of: feed(title: #"\q\x41\'\/"#)), "qx41'/")
        XCTAssertEqual(try title(of: feed(title: #"\"quoted\" \u00e9\n"#)), "\"quoted\" é\n")
        XCTAssertEqual(try title(of: feed(title: " ")), " ")
        XCTAssertEqual(try title(of: feed(title: #"\\u00e4"#)), "\\u00e4")
        XCTAssertEqual(try title(of: feed(title: #"I\'m"#, jsonp: true)), "I'm")
    }

    func testJSONPWithSemicolonAndSpacesDecodes() throws {
        let body = String(decoding: feed(title: #"it\'s"#), as: UTF8.self)
        let photo = try Photo.decode(feed: Data("  jsonFlickrFeed ( \(body) ) ;\n".utf8))
        XCTAssertEqual(photo.items.map(\.title), ["it's"])
        XCTAssertEqual(photo.link, "https://www.flickr.com/photos/")
        XCTAssertEqual(photo.items.first?.author, "nobody@flickr.com (\"x\")")
        XCTAssertEqual(photo.items.first?.tags, "")
    }

    func testEmptyItemsDecode() throws {
        let photo = try Photo.decode(feed: Data(#"{"title":"t","link":"l","items":[]}"#.utf8))
        XCTAssertEqual(photo.items, [])
        XCTAssertNil(photo.description)
        XCTAssertNil(photo.modified)
        XCTAssertNil(photo.generator)
    }

    func testTruncationAtEveryByteThrows() throws {
        for whole in [feed(title: #"I\'ll \u00e9 \uD83D\uDE00 \\"#), feed(title: #"x\'"#, jsonp: true)] {
            XCTAssertNoThrow(try Photo.decode(feed: whole))
            for length in 0..<whole.count {
                XCTAssertThrowsError(try Photo.decode(feed: whole.prefix(length)), "prefix of \(length) bytes") { error in
                    XCTAssertNotNil(error as? PhotoFeedError)
                }
            }
        }
    }

    func testRandomDamageNeverCrashes() throws {
        var random = SplitMix64(seed: 42)
        let original = Array(feed(title: #"I\'ll \u00e9"#, jsonp: true))
        let interesting: [UInt8] = [0x5C, 0x22, 0x27, 0x75, 0x28, 0x29, 0x3B, 0x7B, 0x7D, 0x80, 0xC3, 0xED, 0xFF, 0x20, 0x00]
        var outcomes = (decoded: 0, failed: 0)
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next(upperBound: 3))) {
                let position = Int(random.next(upperBound: UInt64(bytes.count)))
                let value = interesting[Int(random.next(upperBound: UInt64(interesting.count)))]
                switch random.next(upperBound: 3) {
                case 0: bytes[position] = value
                case 1: bytes.insert(value, at: position)
                default: bytes.remove(at: position)
                }
            }
            do {
                _ = try Photo.decode(feed: Data(bytes))
                outcomes.decoded += 1
            } catch {
                outcomes.failed += 1
            }
        }
        XCTAssertEqual(outcomes.decoded + outcomes.failed, 2_000)
        XCTAssertGreaterThan(outcomes.failed, 0)
    }

    func testMissingRequiredFieldNamesItsPath() {
        let data = Data(#"{"title":"t","link":"l","items":[{"title":"a"}]}"#.utf8)
        XCTAssertThrowsError(try Photo.decode(feed: data)) { error in
            guard case .decoding(let path, _) = error as? PhotoFeedError else {
                return XCTFail("expected a decoding error, got \(error)")
            }
            XCTAssertEqual(path, "items[0].link")
        }
    }

    func testWrongTypeNamesItsPath() {
        let data = Data(#"{"title":"t","link":"l","items":[{"title":5}]}"#.utf8)
        XCTAssertThrowsError(try Photo.decode(feed: data)) { error in
            guard case .decoding(let path, let reason) = error as? PhotoFeedError else {
                return XCTFail("expected a decoding error, got \(error)")
            }
            XCTAssertEqual(path, "items[0].title")
            XCTAssertTrue(reason.contains("String"), reason)
        }
    }

    func testSanitizerFailuresAreWrapped() {
        XCTAssertThrowsError(try Photo.decode(feed: Data())) { error in
            XCTAssertEqual(error as? PhotoFeedError, .sanitizing(.empty))
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, FeedSanitizerError.empty.errorDescription)
        }
    }
}
