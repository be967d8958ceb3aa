import Foundation
import PhotoFeed
import TestSupport
import XCTest

final class FixtureDecodingTests: LeakCheckingTestCase {
    func testJSONPCaptureUnwrapsAndRepairsTheApostrophe() throws {
        let data = try FlickrCaptures.data("01_")
        let sanitized = try FeedSanitizer.sanitize(data)
        XCTAssertEqual(sanitized.first, UInt8(ascii: "{"))
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("jsonFlickrFeed({") && text.hasSuffix("})"))
        let expected = String(text.dropFirst("jsonFlickrFeed(".count).dropLast())
            .replacingOccurrences(of: "\\'", with: "'")
        XCTAssertEqual(sanitized, Data(expected.utf8))
        XCTAssertEqual(sanitized.count, data.count - "jsonFlickrFeed()".utf8.count - 1)

        let photo = try Photo.decode(feed: data)
        XCTAssertEqual(photo.title, "Recent Uploads tagged potato")
        XCTAssertEqual(photo.link, "https://www.flickr.com/photos/tags/potato/")
        XCTAssertEqual(photo.description, "")
        XCTAssertEqual(photo.modified, "2015-12-21T05:48:08Z")
        XCTAssertEqual(photo.generator, "https://www.flickr.com/")
        XCTAssertEqual(photo.items.count, 20)

        let first = try XCTUnwrap(photo.items.first)
        XCTAssertEqual(first.title, "Danish Potato Salad")
        XCTAssertEqual(first.link, "https://www.flickr.com/photos/134519105@N03/23254876683/")
        XCTAssertEqual(first.media.m, "https://farm1.staticflickr.com/709/23254876683_2e55c565d9_m.jpg")
        XCTAssertEqual(first.author, "nobody@flickr.com (sweetsoursavory)")
        XCTAssertEqual(first.dateTaken, "2014-05-28T18:05:17-08:00")
        XCTAssertTrue(first.description.contains("<a href=\"https://www.flickr.com/people/134519105@N03/\">sweetsoursavory</a>"))

        let apostrophe = photo.items[8]
        XCTAssertEqual(apostrophe.link, "https://www.flickr.com/photos/133105792@N04/23227571273/")
        XCTAssertTrue(apostrophe.description.contains("I'll have to try this again"))
        XCTAssertFalse(apostrophe.description.contains("\\"))

        let last = try XCTUnwrap(photo.items.last)
        XCTAssertEqual(last.author, "nobody@flickr.com (ixmatex)")
        XCTAssertEqual(last.authorID, "40563260@N07")
        XCTAssertEqual(last.tags, "food pc beef chips pork potato snacks jerky 苗栗 竹南 食品 垂坤")
        XCTAssertTrue(photo.items.allSatisfy { !$0.author.contains("(\"") }, "2015 captures use the unquoted author style")
    }

    func testValidCaptureWithEscapedSlashesAndUnicodeEscapes() throws {
        let data = try FlickrCaptures.data("02_")
        XCTAssertEqual(try FeedSanitizer.sanitize(data), data)

        let photo = try Photo.decode(feed: data)
        XCTAssertEqual(photo.title, "Recent Uploads tagged cats")
        XCTAssertEqual(photo.link, "http://www.flickr.com/photos/tags/cats/")
        XCTAssertEqual(photo.generator, "http://www.flickr.com")
        XCTAssertEqual(photo.items.count, 20)
        let first = try XCTUnwrap(photo.items.first)
        XCTAssertEqual(first.title, "DSCN7099")
        XCTAssertEqual(first.link, "http://www.flickr.com/photos/markestes/44829056064/")
        XCTAssertEqual(first.media.m, "http://farm2.staticflickr.com/1975/44829056064_f53f1a292c_m.jpg")
        XCTAssertEqual(first.author, "nobody@flickr.com (\"mestes76\")")
        XCTAssertTrue(photo.items[18].tags.contains("susanne schötz"))
        XCTAssertTrue(photo.items[19].tags.contains("this product\u{2019}s current rank"))
    }

    func testValidCaptureWithQuotesInTitlesDottedCapitalIAndEmptyTags() throws {
        let data = try FlickrCaptures.data("03_")
        XCTAssertEqual(try FeedSanitizer.sanitize(data), data)

        let photo = try Photo.decode(feed: data)
        XCTAssertEqual(photo.title, "Uploads from everyone")
        XCTAssertEqual(photo.items.count, 20)
        XCTAssertEqual(photo.items[1].author, "nobody@flickr.com (\"OKAN ENG\u{0130}N\")")
        XCTAssertTrue(photo.items[1].description.contains(">OKAN ENGİN</a>"))
        XCTAssertEqual(photo.items[11].title, "\"La furia del mare in tempesta\" Racconti dal mare. Racconti")
        XCTAssertEqual(photo.items[12].title, " ")
        XCTAssertEqual(photo.items[12].link, "https://www.flickr.com/photos/michisunited/45136199014/")
        XCTAssertEqual(photo.items.filter { $0.tags.isEmpty }.count, 15)
        XCTAssertEqual(photo.items[0].tags, "")
        XCTAssertEqual(photo.items[0].author, "nobody@flickr.com (\"maurizio.cragnolini\")")
    }

    func testValidCaptureWithLeadingSpacesAndAccentEscapes() throws {
        let data = try FlickrCaptures.data("04_")
        XCTAssertEqual(try FeedSanitizer.sanitize(data), data)

        let photo = try Photo.decode(feed: data)
        XCTAssertEqual(photo.title, "Recent Uploads tagged porcupine")
        XCTAssertEqual(photo.modified, "2022-05-09T12:43:22Z")
        XCTAssertEqual(photo.items.count, 20)
        XCTAssertEqual(photo.items[0].author, "nobody@flickr.com (\"Rob Vaughn (Instagram @robvaughn_)\")")
        XCTAssertEqual(photo.items[0].media.m, "https://live.staticflickr.com/65535/52061347331_e421761d33_m.jpg")
        let accented = photo.items.filter { $0.title == "IMG_5887 Porc-\u{00e9}pic, Roberval" }
        XCTAssertEqual(accented.count, 1)
        XCTAssertEqual(accented.first?.tags, "animal nature mammifère porcépic porcupine")
    }

    func testDoubleEscapedAuthorKeepsItsLiteralBackslash() throws {
        let data = try FlickrCaptures.data("05_")
        XCTAssertEqual(try FeedSanitizer.sanitize(data), data)

        let photo = try Photo.decode(feed: data)
        XCTAssertEqual(photo.title, "Recent Uploads tagged cars")
        XCTAssertEqual(photo.items.count, 20)
        let first = photo.items[0]
        XCTAssertEqual(first.title, "San Francisco: California Street")
        XCTAssertEqual(first.author, "nobody@flickr.com (\"\\u00e4quinoktium\")")
        XCTAssertEqual(Array(first.author.unicodeScalars.map(\.value)[20...21]), [0x5C, 0x75])
        XCTAssertFalse(first.author.contains("ä"))
        XCTAssertTrue(first.description.contains(">äquinoktium</a>"))
        XCTAssertEqual(photo.items[1].title, " ")
        XCTAssertEqual(photo.items[1].link, "http://www.flickr.com/photos/47504763@N05/26709510409/")
    }

    func testCaptureWithItsHeaderCutOffFailsWithADecodingError() throws {
        let data = try FlickrCaptures.data("06_")
        XCTAssertThrowsError(try Photo.decode(feed: data)) { error in
            guard case .decoding(_, let reason) = error as? PhotoFeedError else {
                return XCTFail("expected a decoding error, got \(error)")
            }
            XCTAssertFalse(reason.isEmpty)
            XCTAssertNotNil((error as? PhotoFeedError)?.errorDescription)
        }
    }

    func testCaptureWithLatin1BytesFailsWithTheOffsetOfTheFirstOne() throws {
        let data = try FlickrCaptures.data("07_")
        XCTAssertThrowsError(try FeedSanitizer.sanitize(data)) { error in
            XCTAssertEqual(error as? FeedSanitizerError, .invalidUTF8(offset: 5335))
        }
        XCTAssertThrowsError(try Photo.decode(feed: data)) { error in
            XCTAssertEqual(error as? PhotoFeedError, .sanitizing(.invalidUTF8(offset: 5335)))
        }
        XCTAssertEqual(data[data.startIndex + 5335], 0xFC)
    }
}
