import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

private struct Property: Encodable, Sendable {
    let property = "property"
}

private struct Refusing: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws { throw TestError(7) }
}

/// `JSONParameterEncoder` and `URLEncodedFormParameterEncoder` against Alamofire's expected
/// outputs, and `RequestTask.requestEncodableParameters` through the provider.
final class ParameterEncoderTests: LeakCheckingTestCase {
    private let url = URL(string: "https://httpbin.org/get")!

    private func request(_ method: HTTPMethod = .get) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        return request
    }

    func testJSONParameterEncoder() throws {
        let encoded = try JSONParameterEncoder().encode(Property(), into: request())
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(encoded.httpBody?.utf8Text, #"{"property":"property"}"#)
        var typed = request()
        typed.setValue("type", forHTTPHeaderField: "Content-Type")
        XCTAssertEqual(try JSONParameterEncoder.default.encode(Property(), into: typed).value(forHTTPHeaderField: "Content-Type"), "type")
        XCTAssertEqual(try JSONParameterEncoder.prettyPrinted.encode(Property(), into: request()).httpBody?.utf8Text,
                       "{\n  \"property\" : \"property\"\n}")
        XCTAssertEqual(try JSONParameterEncoder.sortedKeys.encode(["z": "z", "a": "a", "p": "p"], into: request()).httpBody?.utf8Text,
                       #"{"a":"a","p":"p","z":"z"}"#)
        XCTAssertEqual(try JSONParameterEncoder.default.encode(Property?.none, into: request()), request(), "nil changes nothing")
        XCTAssertThrowsError(try JSONParameterEncoder.default.encode(Refusing(), into: request())) {
            XCTAssertEqual($0 as? TestError, TestError(7))
        }
    }

    func testURLEncodedFormParameterEncoderDestinations() throws {
        let body = try URLEncodedFormParameterEncoder().encode(Property(), into: request(.post))
        XCTAssertEqual(body.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(body.httpBody?.utf8Text, "property=property")
        XCTAssertEqual(body.url, url)
        var typed = request(.post)
        typed.setValue("type", forHTTPHeaderField: "Content-Type")
        XCTAssertEqual(try URLEncodedFormParameterEncoder.default.encode(Property(), into: typed).value(forHTTPHeaderField: "Content-Type"), "type")

        let literal = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(boolEncoding: .literal))
        XCTAssertEqual(try literal.encode(["bool": true], into: request()).url?.query, "bool=true")
        for method in [HTTPMethod.get, .head, .delete] {
            XCTAssertEqual(try URLEncodedFormParameterEncoder.default.encode(Property(), into: request(method)).url?.query, "property=property")
        }
        let query = URLEncodedFormParameterEncoder(destination: .queryString)
        let posted = try query.encode(Property(), into: request(.post))
        XCTAssertEqual(posted.url?.query, "property=property")
        XCTAssertNil(posted.httpBody)
        XCTAssertNil(try query.encode([String: String](), into: request()).url?.query, "an empty result leaves no query")
        var existing = request()
        existing.url = URL(string: "https://httpbin.org/get?x=1")
        XCTAssertEqual(try query.encode(Property(), into: existing).url?.query, "x=1&property=property")
        let got = try URLEncodedFormParameterEncoder(destination: .httpBody).encode(Property(), into: request())
        XCTAssertEqual(got.httpBody?.utf8Text, "property=property")
        XCTAssertEqual(got.url?.query, nil)
    }

    func testURLEncodedFormParameterEncoderFailures() {
        var noURL = request()
        noURL.url = nil
        XCTAssertThrowsError(try URLEncodedFormParameterEncoder.default.encode(Property(), into: noURL)) {
            XCTAssertEqual($0 as? ParameterEncodingFailure, .missingURL)
        }
        XCTAssertThrowsError(try URLEncodedFormParameterEncoder.default.encode([1, 2], into: request())) {
            XCTAssertEqual($0 as? URLEncodedFormEncoder.Error, .invalidRootObject("array of 2"))
        }
    }

    func testLeadingDotEncoders() throws {
        func take(_ encoder: some ParameterEncoder) throws -> String? {
            try encoder.encode(["a": 1], into: request(.post)).httpBody?.utf8Text
        }
        XCTAssertEqual(try take(.json), #"{"a":1}"#)
        XCTAssertEqual(try take(.json(encoder: JSONEncoder())), #"{"a":1}"#)
        XCTAssertEqual(try take(.urlEncodedForm), "a=1")
        XCTAssertEqual(try take(.urlEncodedForm(destination: .httpBody)), "a=1")
    }

    func testRequestEncodableParametersThroughTheProvider() throws {
        let sent = { (task: RequestTask, method: HTTPMethod) -> Result<URLRequest?, any Error> in
            let scheduler = TestScheduler(initialClock: 0)
            let provider = NetworkProvider<TestTarget>(stubClosure: NetworkProvider.immediatelyStub, scheduler: scheduler)
            let res = scheduler.start { provider.rx.request(TestTarget(method: method, task: task)).map(\.request) }
            switch res.events.first?.value {
            case .next(let request)?: return .success(request)
            case .error(let error)?: return .failure(error)
            default: return .failure(TestError(-1))
            }
        }
        let query = try sent(.requestEncodableParameters(parameters: Property(), encoder: URLEncodedFormParameterEncoder.default), .get).get()
        XCTAssertEqual(query?.url?.absoluteString, "http://127.0.0.1:8080/api/items?property=property")
        let json = try sent(.requestEncodableParameters(parameters: ["b": 1, "a": 2], encoder: JSONParameterEncoder.sortedKeys), .post).get()
        XCTAssertEqual(json?.httpBody?.utf8Text, #"{"a":2,"b":1}"#)
        XCTAssertEqual(json?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        guard case .failure(ProviderError.parameterEncoding(let error)) = sent(.requestEncodableParameters(parameters: Refusing(), encoder: JSONParameterEncoder.default), .post) else {
            return XCTFail("a failing value is a parameter-encoding failure")
        }
        XCTAssertEqual(error as? TestError, TestError(7))
        XCTAssertEqual(endpoint(.requestEncodableParameters(parameters: ["b": 1, "a": 2], encoder: JSONParameterEncoder.default), method: .post),
                       endpoint(.requestEncodableParameters(parameters: ["a": 2, "b": 1], encoder: JSONParameterEncoder.sortedKeys), method: .post),
                       "a JSON body compares by its value")
    }

    func testURLEncodingCustomArrayEncoding() {
        let encoding = URLEncoding(arrayEncoding: .custom { key, index in "\(key)-\(index)" })
        XCTAssertEqual(encoding.query(["a": ["x", "y"]]), "a-0=x&a-1=y")
        XCTAssertNotEqual(encoding.arrayEncoding, encoding.arrayEncoding, "closures cannot be compared")
        XCTAssertEqual(URLEncoding.ArrayEncoding.brackets, .brackets)
    }

    func testURLOfATarget() {
        XCTAssertEqual(URL(target: TestTarget()).absoluteString, "http://127.0.0.1:8080/api/items")
        XCTAssertEqual(URL(target: TestTarget(path: "")).absoluteString, "http://127.0.0.1:8080/api")
        XCTAssertEqual(URL(target: TestTarget()), URL(string: Endpoint(target: TestTarget()).url))
    }

    func testStubsDelayedInSeconds() {
        XCTAssertEqual(StubBehavior.delayed(seconds: 1.5), .delayed(.milliseconds(1500)))
        let scheduler = TestScheduler(initialClock: 0)
        let provider = NetworkProvider<TestTarget>(stubClosure: NetworkProvider.delayedStub(3), scheduler: scheduler)
        let res = scheduler.start { provider.rx.request(TestTarget()).map(\.statusCode) }
        XCTAssertEqual(res.events, [.next(203, 200), .completed(203)])
    }
}
