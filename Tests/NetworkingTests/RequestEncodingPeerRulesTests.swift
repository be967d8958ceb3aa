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

    /// A file part's length is read when it is appended and announced with the body
    /// (`Content-Length`); a file that is shorter or longer when the body is read fails it, as a
    /// stream part ending before its length does, instead of giving a body of another length.
    func testAFilePartThatChangedSizeSinceItWasAppendedFailsTheBody() throws {
        for contents in ["01", "0123456789 and more"] {
            let file = try temporaryFile(Data("0123456789".utf8))
            let form = MultipartFormData(boundary: "b")
            form.append(Data("v".utf8), name: "before")
            form.append(file, withName: "f")
            try Data(contents.utf8).write(to: file)
            XCTAssertThrowsError(try form.encode(), contents) { error in
                XCTAssertEqual(error as? MultipartEncodingFailure, .inputStreamReadFailed, contents)
            }
        }
    }

    /// `allowedCharacters` may keep characters a URL's query cannot hold (`[` `]` are often asked
    /// for, and a `%` not starting an escape): in the query they are percent-encoded, which the
    /// server decodes to the same form, instead of stopping the program in `URLComponents`'
    /// `percentEncodedQuery` setter. The body keeps them as the encoder wrote them.
    func testAFormQueryWithCharactersAQueryCannotHoldIsEscapedInsteadOfStoppingTheProgram() throws {
        let encoder = URLEncodedFormEncoder(allowedCharacters: CharacterSet.afURLQueryAllowed.union(CharacterSet(charactersIn: "[]%|")))
        let parameters = ["a": ["100%", "x|y", "%41"]]
        let inQuery = try URLEncodedFormParameterEncoder(encoder: encoder, destination: .queryString)
            .encode(parameters, into: request("GET", "http://127.0.0.1/p?x=1#f"))
        XCTAssertEqual(inQuery.url?.absoluteString, "http://127.0.0.1/p?x=1&a%5B%5D=%41&a%5B%5D=100%25&a%5B%5D=x%7Cy#f")
        let inBody = try URLEncodedFormParameterEncoder(encoder: encoder, destination: .httpBody)
            .encode(parameters, into: request("POST"))
        XCTAssertEqual(inBody.httpBody.map { String(decoding: $0, as: UTF8.self) }, "a[]=%41&a[]=100%&a[]=x|y")
    }

    private func temporaryFile(_ contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("encoding-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("part.txt")
        try contents.write(to: file)
        return file
    }
}

/// What reaches FeedServer's `/echo` when a multipart body cannot be what it announced.
final class RequestEncodingWireRulesTests: FeedServerTestCase {
    /// A form whose file part shrank or grew after it was appended announced the old length: the
    /// default transport waited for bytes that never came (shrunk) or sent a form cut short as a
    /// success (grown). Both now fail the request at once.
    func testAFormWhoseFileChangedSizeFailsInsteadOfHangingOrBeingCut() throws {
        for contents in ["01", "0123456789 and more"] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("encoding-wire-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("part.txt")
            try Data("0123456789".utf8).write(to: file)
            let form = MultipartFormData(boundary: "b")
            form.append(file, withName: "f")
            try Data(contents.utf8).write(to: file)

            let provider = NetworkProvider<ServerRoute>(transport: DefaultTransport())
            let results = Recorder<Result<Response, ProviderError>>()
            provider.request(route("echo", method: .post, task: .uploadMultipartFormData(form))) { results.append($0) }
            XCTAssertTrue(waitUntil(timeout: 10) { results.count == 1 }, "no answer: \(contents)")
            guard case .failure(.underlying(let error as MultipartEncodingFailure, nil))? = results.values.first else {
                XCTFail("\(results.values) \(contents)")
                continue
            }
            XCTAssertEqual(error, .inputStreamReadFailed, contents)
        }
    }
}
