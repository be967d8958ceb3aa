import Foundation
@testable import HTTPClient
import XCTest

/// Which redirects the client follows and the request it sends next, without a socket.
final class RedirectPolicyTests: XCTestCase {
    private func request(_ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) -> HTTPClientRequest {
        HTTPClientRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"), method: method, headers: headers, body: body.map { .bytes($0) })
    }

    func testOnlyTheFiveRedirectStatusesWithALocationToHTTPOrHTTPSAreFollowed() {
        let start = request("http://a.test/x")
        for status in [301, 302, 303, 307, 308] {
            XCTAssertEqual(RedirectPolicy.nextRequest(after: start, status: status, location: "/y")?.url.absoluteString, "http://a.test/y")
        }
        XCTAssertNil(RedirectPolicy.nextRequest(after: start, status: 300, location: "/y"))
        XCTAssertNil(RedirectPolicy.nextRequest(after: start, status: 304, location: "/y"))
        XCTAssertNil(RedirectPolicy.nextRequest(after: start, status: 302, location: nil), "no Location")
        XCTAssertEqual(RedirectPolicy.nextRequest(after: start, status: 302, location: "https://a.test/y")?.url.absoluteString, "https://a.test/y",
                       "http to https is followed")
        XCTAssertEqual(RedirectPolicy.nextRequest(after: request("https://a.test/x"), status: 302, location: "http://a.test/y")?.url.absoluteString,
                       "http://a.test/y", "and https to http, as URLSession does")
        XCTAssertNil(RedirectPolicy.nextRequest(after: start, status: 302, location: "ftp://a.test/y"), "another scheme is returned as the response")
        let withCredentials = request("https://a.test/x", headers: ["Authorization": "Bearer t", "Cookie": "c=1", "X-Keep": "1"])
        let downgraded = RedirectPolicy.nextRequest(after: withCredentials, status: 302, location: "http://a.test/y")
        XCTAssertEqual(downgraded?.headers, ["X-Keep": "1"], "credentials are dropped when the scheme changes")
    }

    func testSeeOtherAndAPostMovedBecomeABodylessGet() throws {
        let post = request("http://a.test/form", method: "post", headers: ["Content-Type": "text/plain", "X-Keep": "1"], body: Data("b".utf8))
        for status in [301, 302, 303] {
            let next = try XCTUnwrap(RedirectPolicy.nextRequest(after: post, status: status, location: "/done"))
            XCTAssertEqual(next.method, "GET", "\(status)")
            XCTAssertNil(next.body)
            XCTAssertEqual(next.headers, ["X-Keep": "1"], "Content-Type goes with the body")
        }
        for status in [307, 308] {
            let next = try XCTUnwrap(RedirectPolicy.nextRequest(after: post, status: status, location: "/done"))
            XCTAssertEqual(next.normalizedMethod, "POST", "\(status) repeats method and body")
            guard case .bytes(let data)? = next.body else { return XCTFail("\(status) keeps the body") }
            XCTAssertEqual(data, Data("b".utf8))
        }
        let head = request("http://a.test/x", method: "HEAD")
        XCTAssertEqual(RedirectPolicy.nextRequest(after: head, status: 303, location: "/y")?.method, "HEAD", "303 keeps HEAD")
    }

    func testCredentialsAreDroppedWhenTheHostOrPortChanges() throws {
        let start = request("http://a.test:8080/x", headers: ["authorization": "Bearer t", "Cookie": "c=1", "Accept": "*/*"])
        let sameHost = try XCTUnwrap(RedirectPolicy.nextRequest(after: start, status: 302, location: "/y"))
        XCTAssertEqual(sameHost.headers.count, 3)
        let otherPort = try XCTUnwrap(RedirectPolicy.nextRequest(after: start, status: 302, location: "http://a.test:9090/y"))
        XCTAssertEqual(otherPort.headers, ["Accept": "*/*"])
        let otherHost = try XCTUnwrap(RedirectPolicy.nextRequest(after: start, status: 307, location: "http://b.test:8080/y"))
        XCTAssertEqual(otherHost.headers, ["Accept": "*/*"])
    }
}
