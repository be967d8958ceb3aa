import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

/// Request building checked against Alamofire 5's and Moya 15's documented behaviour, for the
/// edge cases their own test suites leave out.
final class RequestEncodingPeerRulesTests: LeakCheckingTestCase {
    private func request(_ method: String, _ url: String = "http://127.0.0.1/p") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        return request
    }

    /// Alamofire writes an optional number or bool in a `[String: Any]` as its value (the cast to
    /// `NSNumber` unwraps it): `page=5`, `on=1`; never Swift's `Optional(5)`.
    func testURLEncodingWritesTheValueOfAnOptional() throws {
        let page: Int? = 5
        let on: Bool? = true
        let ratio: Double? = 2.0
        let tags: [Int]? = [1, 2]
        let nested: [String: any Sendable] = ["size": page, "label": "a b" as String?]
        let encoded = try URLEncoding.queryString.encode(request("GET"), with: [
            "page": page, "on": on, "ratio": ratio, "tags": tags, "filter": nested,
        ])
        XCTAssertEqual(encoded.url?.query,
                       "filter%5Blabel%5D=a%20b&filter%5Bsize%5D=5&on=1&page=5&ratio=2&tags%5B%5D=1&tags%5B%5D=2")
    }

    /// `.methodDependent` puts parameters in the query only for `GET`, `HEAD` and `DELETE`
    /// (Alamofire's `encodesParametersInURL(with:)`); any other method, one this package has no
    /// `HTTPMethod` case for included, gets them in the body.
    func testMethodDependentPutsParametersOfOtherMethodsInTheBody() throws {
        for method in ["PROPFIND", "QUERY", "patch"] {
            let encoded = try URLEncoding.default.encode(request(method), with: ["a": 1])
            XCTAssertEqual(encoded.url?.absoluteString, "http://127.0.0.1/p", method)
            XCTAssertEqual(encoded.httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=1", method)
            XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8", method)
        }
    }

    /// A part's `Content-Type` is one header line (RFC 7578 §4.4): a MIME type holding CR or LF
    /// must not add header lines to the part, nor end its headers early.
    func testAMIMETypeCannotInjectPartHeaders() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("v".utf8), name: "f", fileName: "f.txt", mimeType: "text/plain\r\nX-Injected: 1\r\n\r\nforged")
        let body = String(decoding: try form.encode(), as: UTF8.self)
        XCTAssertEqual(body, "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.txt\"\r\n"
            + "Content-Type: text/plain%0D%0AX-Injected: 1%0D%0A%0D%0Aforged\r\n\r\nv\r\n--b--\r\n")
    }
}
