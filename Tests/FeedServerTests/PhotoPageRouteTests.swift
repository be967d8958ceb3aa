import FeedServer
import Foundation
import XCTest

/// The pages a demo feed's links lead to: each photo's `link` is a page of the same server,
/// showing the photo's title, author and picture, not an invented flickr.com address.
final class PhotoPageRouteTests: FeedServerTestCase {
    private func feedItems(_ server: FeedServer) throws -> [[String: Any]] {
        let response = try get(server, "/services/feeds/photos_public.gne?format=json&nojsoncallback=1")
        let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: "\\'", with: "'")
        let feed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try XCTUnwrap(feed["items"] as? [[String: Any]])
    }

    /// `text` as the page writes it inside HTML.
    private func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    func testEveryLinkOfTheFeedIsAPageOfThisServerShowingThePhoto() throws {
        let server = try makeServer()
        let items = try feedItems(server)
        XCTAssertEqual(items.count, 20)
        for item in items {
            let link = try XCTUnwrap(item["link"] as? String)
            let base = server.baseURL.absoluteString
            XCTAssertTrue(link.hasPrefix(base + "photos/"), link)
            let page = try get(server, "/" + link.dropFirst(base.count))
            XCTAssertEqual(page.head.status, 200, link)
            XCTAssertEqual(page.head.headers["Content-Type"], "text/html; charset=utf-8")
            let body = String(decoding: page.body, as: UTF8.self)
            let title = try XCTUnwrap(item["title"] as? String)
            if !title.trimmingCharacters(in: .whitespaces).isEmpty {
                XCTAssertTrue(body.contains("<h1>\(html(title))</h1>"), body)
            }
            let media = try XCTUnwrap((item["media"] as? [String: String])?["m"])
            XCTAssertTrue(media.hasPrefix(base + "images/"), media)
            XCTAssertTrue(body.contains("<img src=\"/\(media.dropFirst(base.count))\""), body)
            let author = try XCTUnwrap(item["author"] as? String)
            let name = String(author.dropFirst("nobody@flickr.com (\"".count).dropLast(2))
            XCTAssertTrue(body.contains(">\(html(name))</a>"), body)
            XCTAssertEqual(try get(server, "/" + media.dropFirst(base.count)).head.status, 200, "the picture the page shows")
        }
    }

    func testTheDescriptionLinksToTheSamePagesAndTheAuthorsPage() throws {
        let server = try makeServer(.init(itemsPerPage: 3))
        for item in try feedItems(server) {
            let link = try XCTUnwrap(item["link"] as? String)
            let description = try XCTUnwrap(item["description"] as? String)
            XCTAssertTrue(description.contains("<a href=\"\(link)\""), description)
            XCTAssertFalse(description.contains("flickr.com"), description)
            let base = server.baseURL.absoluteString
            let authorPage = String(link.dropFirst(base.count).split(separator: "/").prefix(2).joined(separator: "/")) + "/"
            XCTAssertTrue(description.contains("<a href=\"\(base)\(authorPage)\">"), description)
            let page = try get(server, "/" + authorPage)
            XCTAssertEqual(page.head.status, 200)
            XCTAssertTrue(String(decoding: page.body, as: UTF8.self).contains("<h1>Photos by "))
        }
    }

    func testPhotosTheGeneratorDoesNotMakeAre404Pages() throws {
        let server = try makeServer()
        let link = try XCTUnwrap(try feedItems(server).first?["link"] as? String)
        let parts = link.dropFirst(server.baseURL.absoluteString.count).split(separator: "/").map(String.init)
        XCTAssertEqual(parts.count, 3)
        for path in ["/photos/\(parts[1])/1/", "/photos/nobody-at-all/\(parts[2])/", "/photos/nobody-at-all/",
                     "/photos/\(parts[1])/\(parts[2])x/", "/photos/\(parts[1])/\(parts[2])/more/", "/photos/"] {
            let page = try get(server, path)
            XCTAssertEqual(page.head.status, 404, path)
            XCTAssertEqual(page.head.headers["Content-Type"], "text/html; charset=utf-8", path)
        }
    }

    func testWithoutAPageBaseTheGeneratorKeepsFlickrsAddresses() throws {
        let page = String(decoding: FeedGenerator(seed: 5, itemsPerPage: 2).page(number: 0), as: UTF8.self)
        XCTAssertTrue(page.contains("\"link\": \"https:\\/\\/www.flickr.com\\/photos\\/"), page)
        let local = String(decoding: FeedGenerator(seed: 5, itemsPerPage: 2).page(number: 0, pageBaseURL: "http://127.0.0.1:1/"), as: UTF8.self)
        XCTAssertEqual(local.components(separatedBy: "\"link\": \"http:\\/\\/127.0.0.1:1\\/photos\\/").count - 1, 2, "each item's link")
        XCTAssertFalse(local.contains("flickr.com\\/people"), local)
    }
}
