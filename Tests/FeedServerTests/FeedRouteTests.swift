import FeedServer
import Foundation
import TestSupport
import XCTest

final class FeedRouteTests: FeedServerTestCase {
    private let feedPath = "/services/feeds/photos_public.gne"

    /// Flickr feeds carry `\'`, which JSON does not allow; dropping that backslash must make them valid.
    private func parseFeed(_ bytes: [UInt8]) throws -> [String: Any] {
        let repaired = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\\'", with: "'")
        let object = try JSONSerialization.jsonObject(with: Data(repaired.utf8))
        return try XCTUnwrap(object as? [String: Any])
    }

    private func items(_ feed: [String: Any]) throws -> [[String: Any]] {
        try XCTUnwrap(feed["items"] as? [[String: Any]])
    }

    func testFeedHasFlickrShapeWithStringFields() throws {
        let server = try makeServer()
        let response = try get(server, "\(feedPath)?tags=cats&tagmode=any&format=json&nojsoncallback=1")
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(response.head.headers["Content-Type"], "application/json; charset=utf-8")
        let feed = try parseFeed(response.body)
        XCTAssertEqual(Set(feed.keys), ["title", "link", "description", "modified", "generator", "items"])
        XCTAssertEqual(feed["title"] as? String, "Recent Uploads tagged cats")
        let list = try items(feed)
        XCTAssertEqual(list.count, 20)
        for item in list {
            XCTAssertEqual(Set(item.keys), ["title", "link", "media", "date_taken", "description", "published", "author", "author_id", "tags"])
            for key in item.keys where key != "media" {
                XCTAssertNotNil(item[key] as? String, key)
            }
            let media = try XCTUnwrap(item["media"] as? [String: String])
            XCTAssertTrue(media["m"]?.hasSuffix("_m.jpg") ?? false)
            XCTAssertTrue((item["link"] as? String)?.hasPrefix(server.baseURL.absoluteString + "photos/") ?? false, "its own pages")
            XCTAssertTrue((item["author"] as? String)?.hasPrefix("nobody@flickr.com (\"") ?? false)
            XCTAssertTrue((item["tags"] as? String)?.split(separator: " ").contains("cats") ?? false)
        }
    }

    func testGeneratedKeysMatchARealCapture() throws {
        let capture = try FlickrCaptures.data("02_")
        let real = try XCTUnwrap(try JSONSerialization.jsonObject(with: capture) as? [String: Any])
        let realItem = try XCTUnwrap((real["items"] as? [[String: Any]])?.first)
        let generated = try parseFeed(Array(FeedGenerator(seed: 3).page(number: 0)))
        XCTAssertEqual(Set(generated.keys), Set(real.keys))
        XCTAssertEqual(Set(try items(generated)[0].keys), Set(realItem.keys))
    }

    func testEveryRequestBringsNewItems() throws {
        let server = try makeServer()
        let first = try items(parseFeed(get(server, "\(feedPath)?format=json&nojsoncallback=1").body))
        let second = try items(parseFeed(get(server, "\(feedPath)?format=json&nojsoncallback=1").body))
        let firstLinks = Set(first.compactMap { $0["link"] as? String })
        let secondLinks = Set(second.compactMap { $0["link"] as? String })
        XCTAssertEqual(firstLinks.count, 20)
        XCTAssertEqual(secondLinks.count, 20)
        XCTAssertTrue(firstLinks.isDisjoint(with: secondLinks))
        let newest = try XCTUnwrap(second.first?["published"] as? String)
        let previous = try XCTUnwrap(first.first?["published"] as? String)
        XCTAssertGreaterThan(newest, previous)
        XCTAssertEqual(server.requestCount(path: feedPath), 2)
    }

    func testDeterministicForASeedAndRequestSequence() throws {
        let target = "\(feedPath)?tags=dogs,beach&tagmode=all&format=json&nojsoncallback=1"
        let one = try makeServer(.init(seed: 42))
        let two = try makeServer(.init(seed: 42))
        let other = try makeServer(.init(seed: 43))
        // media.m names each server's own address; everything else must match byte for byte
        func body(_ server: FeedServer) throws -> String {
            String(decoding: try get(server, target).body, as: UTF8.self)
                .replacingOccurrences(of: "127.0.0.1:\(server.port)", with: "127.0.0.1:PORT")
        }
        for _ in 0..<3 {
            let a = try body(one)
            XCTAssertTrue(a.contains("127.0.0.1:PORT\\/images\\/"))
            XCTAssertEqual(a, try body(two))
            XCTAssertNotEqual(a, try body(other))
        }
        XCTAssertEqual(FeedGenerator(seed: 42).page(number: 2, tags: ["dogs", "beach"]), FeedGenerator(seed: 42).page(number: 2, tags: ["dogs", "beach"]))
    }

    func testTagModesAreHonoured() throws {
        let server = try makeServer()
        let all = try items(parseFeed(get(server, "\(feedPath)?tags=Dogs,%20beach&tagmode=all&format=json&nojsoncallback=1").body))
        for item in all {
            let tags = Set(((item["tags"] as? String) ?? "").split(separator: " ").map(String.init))
            XCTAssertTrue(tags.isSuperset(of: ["dogs", "beach"]), "\(tags)")
        }
        let any = try items(parseFeed(get(server, "\(feedPath)?tags=dogs,beach&tagmode=any&format=json&nojsoncallback=1").body))
        var sawOnlyOne = false
        for item in any {
            let tags = Set(((item["tags"] as? String) ?? "").split(separator: " ").map(String.init))
            XCTAssertFalse(tags.isDisjoint(with: ["dogs", "beach"]), "\(tags)")
            if !tags.isSuperset(of: ["dogs", "beach"]) { sawOnlyOne = true }
        }
        XCTAssertTrue(sawOnlyOne)
    }

    func testJSONPWrappingWithoutNoJSONCallback() throws {
        let server = try makeServer()
        let response = try get(server, "\(feedPath)?tags=cats&format=json")
        XCTAssertEqual(response.head.headers["Content-Type"], "application/javascript; charset=utf-8")
        let text = String(decoding: response.body, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("jsonFlickrFeed({"))
        XCTAssertTrue(text.hasSuffix("})"))
        let inner = Array(response.body.dropFirst("jsonFlickrFeed(".utf8.count).dropLast())
        XCTAssertEqual(try items(parseFeed(inner)).count, 20)
    }

    func testFeedCarriesTheEscapesRealFeedsDo() throws {
        let generator = FeedGenerator(seed: 7)
        var text = ""
        for page in 0..<5 {
            let bytes = generator.page(number: page)
            text += String(decoding: bytes, as: UTF8.self)
            XCTAssertThrowsError(try JSONSerialization.jsonObject(with: bytes), "raw feeds hold \\' and are not strict JSON") { _ in }
            XCTAssertEqual(try items(parseFeed(Array(bytes))).count, 20)
        }
        XCTAssertTrue(text.contains("https:\\/\\/www.flickr.com\\/photos\\/"))
        XCTAssertFalse(text.contains("https://"))
        XCTAssertTrue(text.contains("\\'"))
        XCTAssertTrue(text.contains("\"title\": \"\\\""))
        XCTAssertNotNil(text.range(of: #"\\u[0-9a-f]{4}"#, options: .regularExpression))
        XCTAssertNotNil(text.range(of: #"\\ud83c\\u[0-9a-f]{4}|\\ud83d\\u[0-9a-f]{4}"#, options: .regularExpression))
        XCTAssertTrue(text.unicodeScalars.allSatisfy(\.isASCII))
    }

    func testEscapedTextDecodesToTheIntendedCharacters() throws {
        var titles: [String] = []
        var authors: [String] = []
        for page in 0..<10 {
            for item in try items(parseFeed(Array(FeedGenerator(seed: 11).page(number: page)))) {
                titles.append(item["title"] as? String ?? "")
                authors.append(item["author"] as? String ?? "")
            }
        }
        XCTAssertTrue(titles.contains { $0.contains("'s ") || $0.hasPrefix("Don't") })
        XCTAssertTrue(titles.contains { $0.hasPrefix("\"") })
        XCTAssertTrue(titles.contains { $0.hasPrefix("Café") })
        XCTAssertTrue(titles.contains(" "))
        XCTAssertTrue(authors.contains { $0.contains("ü") || $0.contains("é") || $0.contains("田") })
    }

    func testItemsPerPageIsConfigurable() throws {
        let server = try makeServer(.init(itemsPerPage: 3))
        XCTAssertEqual(try items(parseFeed(get(server, "\(feedPath)?format=json&nojsoncallback=1").body)).count, 3)
        XCTAssertEqual(try items(parseFeed(Array(FeedGenerator(seed: 1, itemsPerPage: 0).page(number: 0)))).count, 0)
    }

    func testOverrideServesExactBytes() throws {
        let bytes = Data("jsonFlickrFeed({\"items\": [\"\\'\"]})".utf8)
        let server = try makeServer(.init(feedOverride: bytes))
        XCTAssertEqual(try get(server, "\(feedPath)?format=json&nojsoncallback=1").body, Array(bytes))
    }

    func testFaultRateOneAlwaysFailsWithJSON() throws {
        let server = try makeServer(.init(feedFaultRate: 1))
        let response = try get(server, "\(feedPath)?format=json&nojsoncallback=1")
        XCTAssertEqual(response.head.status, 503)
        XCTAssertEqual(try json(response)["code"] as? String, "E503")
    }

    func testFaultsAreDeterministicPerSeed() throws {
        func statuses(_ server: FeedServer) throws -> [Int] {
            try (0..<12).map { _ in try get(server, "\(feedPath)?format=json&nojsoncallback=1").head.status }
        }
        let first = try statuses(makeServer(.init(seed: 5, feedFaultRate: 0.5)))
        XCTAssertEqual(first, try statuses(makeServer(.init(seed: 5, feedFaultRate: 0.5))))
        XCTAssertTrue(first.contains(503))
        XCTAssertTrue(first.contains(200))
    }

    func testLatencyStillAnswers() throws {
        let server = try makeServer(.init(feedLatency: .milliseconds(30)))
        XCTAssertEqual(try get(server, "\(feedPath)?format=json&nojsoncallback=1").head.status, 200)
    }

    func testOtherFormatsAreRejected() throws {
        let server = try makeServer()
        XCTAssertEqual(try get(server, "\(feedPath)?format=rss").head.status, 400)
    }
}
