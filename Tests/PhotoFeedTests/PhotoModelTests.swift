import Foundation
import PhotoFeed
import TestSupport
import XCTest

final class PhotoModelTests: LeakCheckingTestCase {
    static func item(_ link: String, title: String = "t", tags: String = "") -> Photo.Item {
        Photo.Item(
            title: title, link: link, media: .init(m: "\(link)_m.jpg"), author: "nobody@flickr.com (a)",
            authorID: "1@N00", dateTaken: "2024-01-01T00:00:00-08:00", published: "2024-01-02T00:00:00Z",
            tags: tags, description: "<p>d</p>")
    }

    func testItemEqualityAndHashingUseTheLinkOnly() {
        let a = Self.item("https://x/1", title: "one")
        let retitled = Self.item("https://x/1", title: "other")
        let b = Self.item("https://x/2", title: "one")
        XCTAssertEqual(a, retitled)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(Set([a, retitled, b]).count, 2)
        XCTAssertEqual(a.hashValue, retitled.hashValue)
        XCTAssertFalse(a.hasSameContent(as: retitled))
        XCTAssertTrue(a.hasSameContent(as: Self.item("https://x/1", title: "one")))
        XCTAssertEqual(PhotoSectionItem.result(a), .result(retitled))
        XCTAssertFalse(PhotoSectionItem.result(a).hasSameContent(as: .result(retitled)))
    }

    func testEncodingUsesFlickrKeysAndRoundTrips() throws {
        let photo = Photo(title: "t", link: "l", items: [Self.item("https://x/1", tags: "a b")], modified: "m")
        let data = try JSONEncoder().encode(photo)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try XCTUnwrap(object["items"] as? [[String: Any]])
        XCTAssertEqual(items.first?["author_id"] as? String, "1@N00")
        XCTAssertEqual(items.first?["date_taken"] as? String, "2024-01-01T00:00:00-08:00")
        XCTAssertNil(items.first?["authorID"])
        let decoded = try Photo.decode(feed: data)
        XCTAssertEqual(decoded, photo)
        XCTAssertTrue(try XCTUnwrap(decoded.items.first).hasSameContent(as: photo.items[0]))
        XCTAssertEqual(decoded.modified, "m")
        XCTAssertNil(decoded.description)
    }

    func testOptionalFieldsAreLenient() throws {
        let base = #""title":"a","link":"l","media":{"m":"u"},"published":"p","author":"au","author_id":"id","tags":"","description":"d""#
        for extra in ["", #","date_taken":null"#, #","date_taken":5"#] {
            let json = #"{"title":"t","link":"l","description":7,"modified":null,"items":[{"# + base + extra + "}]}"
            let photo = try Photo.decode(feed: Data(json.utf8))
            XCTAssertNil(photo.items.first?.dateTaken, extra)
            XCTAssertNil(photo.description)
            XCTAssertNil(photo.modified)
        }
    }
}
