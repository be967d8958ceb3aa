import HTTPWire
import XCTest

/// `HTTPHeaders` as a request's editable list: the subscript's setter, and a dictionary mapped
/// onto the list in one order on every run.
final class HTTPHeadersEditingTests: XCTestCase {
    func testSettingANameReplacesEveryFieldOfItWhereTheFirstWas() {
        var headers: HTTPHeaders = ["Via": "1.1 a", "Accept": "*/*", "via": "1.1 b"]
        headers["VIA"] = "1.1 c"
        XCTAssertEqual(headers.fields, [HTTPHeaders.Field(name: "VIA", value: "1.1 c"), HTTPHeaders.Field(name: "Accept", value: "*/*")])
        headers["X-New"] = "1"
        XCTAssertEqual(headers.fields.last, HTTPHeaders.Field(name: "X-New", value: "1"))
        headers["accept"] = nil
        XCTAssertEqual(headers.fields.map(\.name), ["VIA", "X-New"])
    }

    func testAddingKeepsRepeatsInOrder() {
        var headers = HTTPHeaders()
        headers.add(name: "Via", value: "1.1 edge")
        headers.add(name: "Forwarded", value: "for=1.2.3.4")
        headers.add(name: "via", value: "1.1 origin")
        XCTAssertEqual(headers.values(for: "VIA"), ["1.1 edge", "1.1 origin"])
        XCTAssertEqual(headers["via"], "1.1 edge")
        XCTAssertEqual(headers.joinedByName["Via"], "1.1 edge")
    }

    func testADictionaryMapsOntoTheListOrderedByNameWithoutCase() {
        let headers = HTTPHeaders(["b": "2", "A": "1", "c": "3", "Content-Type": "text/plain"])
        XCTAssertEqual(headers.fields.map(\.name), ["A", "b", "c", "Content-Type"])
        XCTAssertEqual(headers["content-type"], "text/plain")
        XCTAssertEqual(HTTPHeaders([:]).count, 0)
    }
}
