import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import PhotoFeed
import TestSupport
import XCTest

final class FlickrAPITests: LeakCheckingTestCase {
    private func query(_ request: URLRequest) throws -> [String: String] {
        let url = try XCTUnwrap(request.url)
        let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        return Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
    }

    func testPublicPhotosIsAGetOfTheDocumentedPathAndQuery() throws {
        let target = FlickrAPI.publicPhotos(PhotoRequest(tags: "cats, dogs", tagmode: "all"))
        let request = try NetworkProvider<FlickrAPI>.defaultEndpointMapping(for: target).urlRequest()

        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertEqual(request.url?.scheme, "https")
        XCTAssertEqual(request.url?.host, "api.flickr.com")
        XCTAssertEqual(request.url?.path, "/services/feeds/photos_public.gne")
        XCTAssertEqual(try query(request), ["tags": "cats, dogs", "tagmode": "all", "format": "json", "nojsoncallback": "1"])
        XCTAssertNil(request.httpBody)
    }

    func testEndpointClosureMovesTheRequestToAnotherServerKeepingPathAndQuery() throws {
        let base = try XCTUnwrap(URL(string: "http://127.0.0.1:8123/"))
        let mapping = FlickrAPI.endpointClosure(baseURL: base)
        let request = try mapping(.publicPhotos(PhotoRequest())).urlRequest()

        XCTAssertEqual(request.url?.host, "127.0.0.1")
        XCTAssertEqual(request.url?.port, 8123)
        XCTAssertEqual(request.url?.path, "/services/feeds/photos_public.gne")
        XCTAssertEqual(try query(request)["tags"], "landscape, portrait")
    }

    func testEndpointClosureKeepsAPathPrefixOfTheBaseURL() throws {
        let base = try XCTUnwrap(URL(string: "http://127.0.0.1:8123/mirror"))
        let request = try FlickrAPI.endpointClosure(baseURL: base)(.publicPhotos(PhotoRequest())).urlRequest()
        XCTAssertEqual(request.url?.path, "/mirror/services/feeds/photos_public.gne")
    }

    func testSampleDataIsAFeedThatNeedsRepairAndDecodesToItsPhotos() throws {
        let sample = FlickrAPI.publicPhotos(PhotoRequest()).sampleData
        XCTAssertThrowsError(try JSONSerialization.jsonObject(with: sample), "the sample carries Flickr's invalid \\' escape")

        let photo = try Photo.decode(feed: sample)
        XCTAssertEqual(photo.items.map(\.link), FlickrSampleFeed.links)
        XCTAssertEqual(photo.items[1].title, "Portrait d\u{e9}cembre")
        XCTAssertEqual(photo.items[2].title, "Grandma's garden")
        XCTAssertEqual(photo.items[2].author, "nobody@flickr.com (\"O'Brien\")")
        XCTAssertEqual(photo.items[2].description, " <p>It's \"always\" spring here</p> ")
        XCTAssertEqual(photo.items[3].title, " ")
        XCTAssertEqual(photo.items[3].tags, "")
        XCTAssertEqual(photo.link, "https://www.flickr.com/photos/tags/landscape/")
    }
}
