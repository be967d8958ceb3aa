import Foundation
import PhotoFeed
import TestSupport
import XCTest

final class PhotoRequestTests: LeakCheckingTestCase {
    func testDefaultsAreTheDocumentsQuery() {
        let request = PhotoRequest()
        XCTAssertEqual(request.tags, "landscape, portrait")
        XCTAssertEqual(request.tagmode, "any")
        XCTAssertEqual(request.format, "json")
        XCTAssertEqual(request.nojsoncallback, "1")
        XCTAssertEqual(
            request.queryParameters,
            ["tags": "landscape, portrait", "tagmode": "any", "format": "json", "nojsoncallback": "1"]
        )
    }

    func testMemberwiseInitAndEquality() {
        let cats = PhotoRequest(tags: "cats", tagmode: "all")
        XCTAssertEqual(cats.queryParameters["tags"], "cats")
        XCTAssertEqual(cats.queryParameters["tagmode"], "all")
        XCTAssertNotEqual(cats, PhotoRequest())
        XCTAssertEqual(cats, PhotoRequest(tags: "cats", tagmode: "all", format: "json", nojsoncallback: "1"))
    }

    func testCodableRoundTrip() throws {
        let request = PhotoRequest(tags: "dogs", tagmode: "all", format: "json", nojsoncallback: "0")
        let data = try JSONEncoder().encode(request)
        XCTAssertEqual(try JSONDecoder().decode(PhotoRequest.self, from: data), request)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: String])
        XCTAssertEqual(object, request.queryParameters)
    }
}
