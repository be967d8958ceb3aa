import HTTPWire
import XCTest

final class HTTPHeadersTests: XCTestCase {
    func testJoinedByNameJoinsRepeatedFieldsInWireOrder() {
        let headers: HTTPHeaders = ["Set-Cookie": "a=1", "Accept": "*/*", "Set-Cookie": "b=2", "X-Empty": "", "Set-Cookie": "c=3"]
        XCTAssertEqual(headers.joinedByName, ["Set-Cookie": "a=1, b=2, c=3", "Accept": "*/*", "X-Empty": ""])
    }

    func testJoinedByNameKeepsNamesThatDifferOnlyInCaseApart() {
        let headers: HTTPHeaders = ["X-Token": "1", "x-token": "2"]
        XCTAssertEqual(headers.joinedByName, ["X-Token": "1", "x-token": "2"])
        XCTAssertEqual(HTTPHeaders().joinedByName, [:])
    }
}
