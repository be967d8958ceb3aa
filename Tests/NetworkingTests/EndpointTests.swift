import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

private struct Payload: Encodable, Sendable {
    let name: String
    let count: Int
}

private struct Unencodable: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refuses"))
    }
}

final class EndpointTests: LeakCheckingTestCase {
    func testRequestPlain() throws {
        let request = try endpoint(.requestPlain, method: .delete, headers: ["X-A": "1"]).urlRequest()
        XCTAssertEqual(request.url?.absoluteString, "http://127.0.0.1:8080/api/items")
        XCTAssertEqual(request.httpMethod, "DELETE")
        XCTAssertEqual(request.allHTTPHeaderFields, ["X-A": "1"])
        XCTAssertNil(request.httpBody)
    }

    func testEveryMethodAndNoHeadersReachTheRequest() throws {
        for method in HTTPMethod.allCases {
            let request = try endpoint(.requestPlain, method: method, headers: nil).urlRequest()
            XCTAssertEqual(request.httpMethod, method.rawValue)
            XCTAssertEqual(request.allHTTPHeaderFields ?? [:], [:], "no headers given, none sent")
        }
    }

    /// A plain GET's request is shared between builds; changing one copy leaves the others alone.
    func testAPlainRequestChangedByOneCallerStaysPlainForTheNext() throws {
        var first = try Endpoint(target: TestTarget()).urlRequest()
        first.setValue("secret", forHTTPHeaderField: "Authorization")
        first.httpMethod = "POST"
        let second = try Endpoint(target: TestTarget()).urlRequest()
        XCTAssertEqual(first.value(forHTTPHeaderField: "Authorization"), "secret")
        XCTAssertNil(second.value(forHTTPHeaderField: "Authorization"))
        XCTAssertEqual(second.httpMethod, "GET")
        XCTAssertEqual(second.url?.absoluteString, "http://127.0.0.1:8080/api/items")
        XCTAssertEqual(try Endpoint(target: TestTarget(headers: ["X-A": "1"])).urlRequest().allHTTPHeaderFields, ["X-A": "1"])
    }

    func testRequestData() throws {
        let request = try endpoint(.requestData(Data([0, 1, 255])), method: .post).urlRequest()
        XCTAssertEqual(request.httpBody, Data([0, 1, 255]))
        XCTAssertNil(request.value(forHTTPHeaderField: "Content-Type"))
    }

    func testRequestJSONEncodable() throws {
        let request = try endpoint(.requestJSONEncodable(Payload(name: "n", count: 2)), method: .post).urlRequest()
        let object = try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: Any]
        XCTAssertEqual(object?["name"] as? String, "n")
        XCTAssertEqual(object?["count"] as? Int, 2)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    func testRequestCustomJSONEncodableUsesTheEncoderAndKeepsContentType() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Snake: Encodable, Sendable { let firstName: String; let lastName: String }
        let request = try endpoint(.requestCustomJSONEncodable(Snake(firstName: "a", lastName: "b"), encoder: encoder),
                                   method: .put, headers: ["Content-Type": "application/vnd.api+json"]).urlRequest()
        XCTAssertEqual(request.httpBody?.utf8Text, #"{"first_name":"a","last_name":"b"}"#)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/vnd.api+json")
    }

    func testEncodableFailureIsEncodableMapping() {
        XCTAssertThrowsError(try endpoint(.requestJSONEncodable(Unencodable()), method: .post).urlRequest()) { error in
            guard case ProviderError.encodableMapping(let underlying) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(underlying is EncodingError)
        }
    }

    func testRequestParametersWithEachEncoding() throws {
        let query = try endpoint(.requestParameters(parameters: ["q": "a b", "page": 2], encoding: URLEncoding.default)).urlRequest()
        XCTAssertEqual(query.url?.absoluteString, "http://127.0.0.1:8080/api/items?page=2&q=a%20b")
        let body = try endpoint(.requestParameters(parameters: ["q": "a&b"], encoding: URLEncoding.httpBody), method: .post).urlRequest()
        XCTAssertEqual(body.httpBody?.utf8Text, "q=a%26b")
        XCTAssertEqual(body.url?.absoluteString, "http://127.0.0.1:8080/api/items")
        let json = try endpoint(.requestParameters(parameters: ["q": "x"], encoding: JSONEncoding.default), method: .post).urlRequest()
        XCTAssertEqual(json.httpBody?.utf8Text, #"{"q":"x"}"#)
    }

    func testParameterEncodingFailureIsWrapped() {
        XCTAssertThrowsError(try endpoint(.requestParameters(parameters: ["d": Date()], encoding: JSONEncoding.default), method: .post).urlRequest()) { error in
            guard case ProviderError.parameterEncoding(let underlying) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(underlying is ParameterEncodingFailure)
        }
    }

    func testRequestCompositeData() throws {
        let request = try endpoint(.requestCompositeData(bodyData: Data("raw".utf8), urlParameters: ["k": "v"]), method: .post).urlRequest()
        XCTAssertEqual(request.url?.absoluteString, "http://127.0.0.1:8080/api/items?k=v")
        XCTAssertEqual(request.httpBody?.utf8Text, "raw")
    }

    func testRequestCompositeParameters() throws {
        let json = try endpoint(.requestCompositeParameters(bodyParameters: ["b": 1], bodyEncoding: JSONEncoding.default,
                                                            urlParameters: ["u": "x y"]), method: .post).urlRequest()
        XCTAssertEqual(json.url?.absoluteString, "http://127.0.0.1:8080/api/items?u=x%20y")
        XCTAssertEqual(json.httpBody?.utf8Text, #"{"b":1}"#)
        let form = try endpoint(.requestCompositeParameters(bodyParameters: ["b": "="], bodyEncoding: URLEncoding.httpBody,
                                                            urlParameters: ["u": 1]), method: .post).urlRequest()
        XCTAssertEqual(form.url?.query, "u=1")
        XCTAssertEqual(form.httpBody?.utf8Text, "b=%3D")
    }

    func testCompositeParametersRejectAQueryBodyEncoding() {
        XCTAssertThrowsError(try endpoint(.requestCompositeParameters(bodyParameters: ["b": 1], bodyEncoding: URLEncoding.queryString,
                                                                      urlParameters: [:]), method: .post).urlRequest()) { error in
            guard case ProviderError.parameterEncoding(let underlying) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(underlying as? CompositeEncodingFailure, .bodyEncodingMustTargetBody)
        }
    }

    /// A form's exact bytes, as Alamofire writes them (the provider sends this body; `urlRequest()`
    /// no longer builds it).
    func testMultipartPartsExactBody() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("networking-part-\(UUID().uuidString).txt")
        try Data("file body".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let parts = [
            MultipartFormBodyPart(provider: .data(Data("hello".utf8)), name: "greeting"),
            MultipartFormBodyPart(provider: .data(Data([0xFF, 0x00])), name: "photo", fileName: "a \"b\".jpg", mimeType: "image/jpeg"),
            MultipartFormBodyPart(provider: .file(file), name: "doc", mimeType: "text/plain"),
        ]
        let boundary = "networking.boundary.fixed"
        var expected = Data()
        expected.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"greeting\"\r\n\r\nhello\r\n".utf8))
        expected.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a \\\"b\\\".jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8))
        expected.append(Data([0xFF, 0x00]))
        expected.append(Data("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"\(file.lastPathComponent)\"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n".utf8))
        expected.append(Data("--\(boundary)--\r\n".utf8))
        XCTAssertEqual(try MultipartFormData(parts: parts, boundary: boundary).encode(), expected)
    }

    func testMultipartBuilderWithFixedBoundary() throws {
        let form = MultipartFormData(parts: [MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "k")], boundary: "B")
        XCTAssertEqual(try form.encode().utf8Text, "--B\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n--B--\r\n")
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=B")
    }

    // MARK: Moya's EndpointSpec: an upload's request is the endpoint's URL, method and headers

    /// Moya's shared example "endpoint with no request property changed", on its endpoint (a GET
    /// with a `Title` header) for `.uploadFile` of a web URL and `.uploadMultipart([])`: nothing is
    /// opened, built or checked.
    func testUploadTasksChangeNoRequestProperty() throws {
        let base = endpoint(.requestPlain, method: .get, url: "https://api.github.com/zen", headers: ["Title": "Dominar"])
        let form = MultipartFormData()
        form.append(URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)"), withName: "gone")
        let tasks: [RequestTask] = [
            .uploadFile(URL(string: "https://google.com")!),
            .uploadFile(URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")),
            .uploadMultipart([]),
            .uploadMultipart([MultipartFormBodyPart(provider: .file(URL(fileURLWithPath: "/nonexistent/x.png")), name: "f")]),
            .uploadMultipartFormData(form),
        ]
        for task in tasks {
            let endpoint = base.replacing(task: task)
            let request = try endpoint.urlRequest()
            XCTAssertNil(request.httpBody, "\(task)")
            XCTAssertNil(request.httpBodyStream, "\(task)")
            XCTAssertEqual(request.url?.absoluteString, endpoint.url)
            XCTAssertEqual(request.allHTTPHeaderFields, endpoint.httpHeaderFields)
            XCTAssertEqual(request.httpMethod, endpoint.method.rawValue)
        }
    }

    /// Moya's "when task is .uploadCompositeMultipart": it updates the URL, and nothing else.
    func testUploadCompositeMultipartUpdatesTheURLOnly() throws {
        let base = endpoint(.requestPlain, method: .get, url: "https://api.github.com/zen", headers: ["Title": "Dominar"])
        for task: RequestTask in [.uploadCompositeMultipart([], urlParameters: ["Harvey": "Nemesis"]),
                                  .uploadCompositeMultipartFormData(MultipartFormData(), urlParameters: ["Harvey": "Nemesis"])] {
            let endpoint = base.replacing(task: task)
            let request = try endpoint.urlRequest()
            XCTAssertEqual(request.url?.absoluteString, endpoint.url + "?Harvey=Nemesis")
            XCTAssertNil(request.httpBody)
            XCTAssertNil(request.httpBodyStream)
            XCTAssertEqual(request.allHTTPHeaderFields, endpoint.httpHeaderFields)
            XCTAssertEqual(request.httpMethod, "GET")
        }
    }

    func testDownloadDestinationBuildsAPlainRequest() throws {
        let request = try endpoint(.downloadDestination({ url, _ in (url, []) }), method: .get).urlRequest()
        XCTAssertNil(request.httpBody)
        XCTAssertEqual(request.url?.absoluteString, "http://127.0.0.1:8080/api/items")
    }

    func testDownloadParametersEncodeLikeRequestParameters() throws {
        let destination: DownloadDestination = { url, _ in (url, [.removePreviousFile, .createIntermediateDirectories]) }
        let query = try endpoint(.downloadParameters(parameters: ["a": 1], encoding: URLEncoding.default, destination: destination)).urlRequest()
        XCTAssertEqual(query.url?.query, "a=1")
        let body = try endpoint(.downloadParameters(parameters: ["a": 1], encoding: JSONEncoding.default, destination: destination),
                                method: .post).urlRequest()
        XCTAssertEqual(body.httpBody?.utf8Text, #"{"a":1}"#)
        XCTAssertNotEqual(DownloadOptions.removePreviousFile, .createIntermediateDirectories, "two distinct options")
    }

    func testInvalidURLIsRequestMapping() {
        XCTAssertThrowsError(try endpoint(.requestPlain, url: "").urlRequest()) { error in
            guard case ProviderError.requestMapping(let url) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(url, "")
        }
    }

    func testAddingHeadersMergesAndNewValuesWin() throws {
        let base = endpoint(.requestPlain, headers: ["Accept": "text/plain", "X-Keep": "1"])
        let merged = base.adding(newHTTPHeaderFields: ["accept": "application/json", "X-New": "2"])
        XCTAssertEqual(merged.httpHeaderFields, ["accept": "application/json", "X-Keep": "1", "X-New": "2"])
        XCTAssertEqual(endpoint(.requestPlain).adding(newHTTPHeaderFields: ["A": "b"]).httpHeaderFields, ["A": "b"])
        XCTAssertEqual(try merged.urlRequest().value(forHTTPHeaderField: "Accept"), "application/json")
    }

    func testReplacingTask() throws {
        let replaced = endpoint(.requestPlain, method: .post).replacing(task: .requestData(Data("x".utf8)))
        XCTAssertEqual(try replaced.urlRequest().httpBody?.utf8Text, "x")
        XCTAssertEqual(replaced.method, .post)
    }

    func testDefaultEndpointAppendsPathAndUsesSampleData() throws {
        var target = TestTarget(method: .post, task: .requestData(Data("b".utf8)), headers: ["H": "v"])
        let made = NetworkProvider<TestTarget>.defaultEndpointMapping(for: target)
        XCTAssertEqual(made.url, "http://127.0.0.1:8080/api/items")
        XCTAssertEqual(made.method, .post)
        XCTAssertEqual(made.httpHeaderFields, ["H": "v"])
        guard case .networkResponse(200, let data) = made.sampleResponseClosure() else { return XCTFail("sample") }
        XCTAssertEqual(data, Data())
        target.path = ""
        XCTAssertEqual(Endpoint(target: target).url, "http://127.0.0.1:8080/api")
    }

    func testAFixedURLIsTheURLWritten() {
        let url = URL(fixed: "http://127.0.0.1:9/api?x=1")
        XCTAssertEqual(url.port, 9)
        XCTAssertEqual(url.query, "x=1")
    }

    func testEndpointForAnotherBaseURLWithAnotherSample() throws {
        let target = TestTarget(path: "/items")
        let mirror = try XCTUnwrap(URL(string: "http://127.0.0.1:9/mirror"))
        let made = Endpoint(target: target, baseURL: mirror, sampleResponseClosure: { .networkResponse(418, Data("t".utf8)) })
        XCTAssertEqual(made.url, "http://127.0.0.1:9/mirror/items")
        guard case .networkResponse(418, let data) = made.sampleResponseClosure() else { return XCTFail("sample") }
        XCTAssertEqual(data, Data("t".utf8))
    }

    func testTargetDefaults() {
        let target = MinimalTarget()
        XCTAssertEqual(target.sampleData, Data())
        XCTAssertEqual(target.validationType, .none)
        XCTAssertEqual(ValidationType.successCodes.statusCodes, Array(200...299))
        XCTAssertEqual(ValidationType.successAndRedirectCodes.statusCodes, Array(200...399))
        XCTAssertEqual(ValidationType.customCodes([201, 304]).statusCodes, [201, 304])
        XCTAssertTrue(ValidationType.none.accepts(500))
        XCTAssertFalse(ValidationType.successCodes.accepts(302))
        XCTAssertEqual(HTTPMethod.allCases.map(\.rawValue), ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"])
        XCTAssertEqual(HTTPMethod.allCases.filter(\.supportsMultipart), [.post, .put, .patch, .connect])
    }
}
