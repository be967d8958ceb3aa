import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

final class URLEncodingTests: LeakCheckingTestCase {
    private func request(_ method: HTTPMethod, _ url: String = "http://127.0.0.1/p") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method.rawValue
        return request
    }

    func testQueryStringSortsKeysAndEscapesReservedCharacters() throws {
        let encoded = try URLEncoding.queryString.encode(request(.get), with: [
            "z": "last", "a": "x&y=z", "plus": "1+1", "space": "a b", "name": "Zoë", "path": "a/b?c", "safe": "A-z_0.9~",
        ])
        XCTAssertEqual(encoded.url?.absoluteString,
                       "http://127.0.0.1/p?a=x%26y%3Dz&name=Zo%C3%AB&path=a/b?c&plus=1%2B1&safe=A-z_0.9~&space=a%20b&z=last")
        XCTAssertNil(encoded.httpBody)
    }

    func testArraysNestedDictionariesBoolsAndNumbers() throws {
        let parameters: [String: any Sendable] = [
            "tags": ["cat", "dog"],
            "filter": ["size": 10, "kind": ["a": true]] as [String: any Sendable],
            "flag": false,
            "ratio": 1.5,
        ]
        let encoded = try URLEncoding.queryString.encode(request(.get), with: parameters)
        XCTAssertEqual(encoded.url?.query,
                       "filter%5Bkind%5D%5Ba%5D=1&filter%5Bsize%5D=10&flag=0&ratio=1.5&tags%5B%5D=cat&tags%5B%5D=dog")
        XCTAssertEqual(URLEncoding.query(["a": [1, 2]]), "a%5B%5D=1&a%5B%5D=2")
    }

    func testQueryIsAppendedToAnExistingQuery() throws {
        let encoded = try URLEncoding.queryString.encode(request(.get, "http://127.0.0.1/p?x=1"), with: ["y": "2"])
        XCTAssertEqual(encoded.url?.absoluteString, "http://127.0.0.1/p?x=1&y=2")
    }

    func testDefaultDependsOnMethod() throws {
        for method in [HTTPMethod.get, .head, .delete] {
            let encoded = try URLEncoding.default.encode(request(method), with: ["k": "v"])
            XCTAssertEqual(encoded.url?.absoluteString, "http://127.0.0.1/p?k=v", "\(method)")
            XCTAssertNil(encoded.httpBody)
        }
        for method in [HTTPMethod.post, .put, .patch, .options] {
            let encoded = try URLEncoding.default.encode(request(method), with: ["k": "v w"])
            XCTAssertEqual(encoded.url?.absoluteString, "http://127.0.0.1/p", "\(method)")
            XCTAssertEqual(encoded.httpBody?.utf8Text, "k=v%20w")
            XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    func testHTTPBodyKeepsAnExistingContentType() throws {
        var original = request(.get)
        original.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let encoded = try URLEncoding.httpBody.encode(original, with: ["b": 2, "a": 1])
        XCTAssertEqual(encoded.httpBody?.utf8Text, "a=1&b=2")
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "text/plain")
        XCTAssertEqual(encoded.url?.absoluteString, "http://127.0.0.1/p")
    }

    func testNilParametersLeaveTheRequestAlone() throws {
        let original = request(.post)
        XCTAssertEqual(try URLEncoding.httpBody.encode(original, with: nil), original)
        XCTAssertEqual(try JSONEncoding.default.encode(original, with: nil), original)
    }

    func testEscapeEveryReservedCharacter() {
        XCTAssertEqual(URLEncoding.escape(":#[]@!$&'()*+,;= %\"<>"),
                       "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%20%25%22%3C%3E")
        XCTAssertEqual(URLEncoding.escape("日本"), "%E6%97%A5%E6%9C%AC")
        XCTAssertEqual(URLEncoding.escape("👍"), "%F0%9F%91%8D")
    }

    func testJSONEncodingDefaultAndPretty() throws {
        let parameters: [String: any Sendable] = ["b": [1, 2], "a": "x", "c": ["d": true] as [String: any Sendable]]
        let compact = try JSONEncoding.default.encode(request(.post), with: parameters)
        XCTAssertEqual(compact.httpBody?.utf8Text, #"{"a":"x","b":[1,2],"c":{"d":true}}"#)
        XCTAssertEqual(compact.value(forHTTPHeaderField: "Content-Type"), "application/json")
        let pretty = try JSONEncoding.prettyPrinted.encode(request(.post), with: ["a": 1])
        XCTAssertEqual(pretty.httpBody?.utf8Text.replacingOccurrences(of: " ", with: ""), "{\n\"a\":1\n}")
    }

    func testJSONEncodingRejectsNonJSONValues() {
        XCTAssertThrowsError(try JSONEncoding.default.encode(request(.post), with: ["date": Date()])) { error in
            guard case ParameterEncodingFailure.invalidJSONObject = error else { return XCTFail("\(error)") }
        }
    }

    func testAlamofireDefaultsAreBracketsAndNumericBools() {
        let encoding = URLEncoding()
        XCTAssertEqual(encoding.destination, .methodDependent)
        XCTAssertEqual(encoding.arrayEncoding, .brackets)
        XCTAssertEqual(encoding.boolEncoding, .numeric)
        XCTAssertEqual(URLEncoding.default, encoding)
        XCTAssertEqual(encoding.query(["on": true, "off": false]), "off=0&on=1")
    }

    func testArrayEncodings() {
        let parameters: [String: any Sendable] = ["a": ["x", "y"]]
        XCTAssertEqual(URLEncoding(arrayEncoding: .brackets).query(parameters), "a%5B%5D=x&a%5B%5D=y")
        XCTAssertEqual(URLEncoding(arrayEncoding: .noBrackets).query(parameters), "a=x&a=y")
        XCTAssertEqual(URLEncoding(arrayEncoding: .indexInBrackets).query(parameters), "a%5B0%5D=x&a%5B1%5D=y")
        XCTAssertEqual(URLEncoding.ArrayEncoding.indexInBrackets.encode(key: "k", atIndex: 3), "k[3]")
        XCTAssertEqual(URLEncoding.BoolEncoding.literal.encode(value: false), "false")
        let nested: [String: any Sendable] = ["m": ["k": [true, 2] as [any Sendable]] as [String: any Sendable]]
        XCTAssertEqual(URLEncoding(arrayEncoding: .indexInBrackets, boolEncoding: .literal).query(nested),
                       "m%5Bk%5D%5B0%5D=true&m%5Bk%5D%5B1%5D=2")
    }

    func testLiteralBoolsAndNSNumberBooleans() throws {
        let parameters: [String: any Sendable] = ["ns": NSNumber(value: true), "one": NSNumber(value: 1), "swift": false]
        XCTAssertEqual(URLEncoding(boolEncoding: .numeric).query(parameters), "ns=1&one=1&swift=0")
        XCTAssertEqual(URLEncoding(boolEncoding: .literal).query(parameters), "ns=true&one=1&swift=false")
        let encoded = try URLEncoding(destination: .httpBody, boolEncoding: .literal).encode(request(.get), with: ["b": true])
        XCTAssertEqual(encoded.httpBody?.utf8Text, "b=true")
        XCTAssertEqual(encoded.url?.absoluteString, "http://127.0.0.1/p")
    }

    func testJSONEncodingOfAnyJSONObject() throws {
        let array = try JSONEncoding.default.encode(request(.post), withJSONObject: [["id": 1], ["id": 2]])
        XCTAssertEqual(array.httpBody?.utf8Text, #"[{"id":1},{"id":2}]"#)
        XCTAssertEqual(array.value(forHTTPHeaderField: "Content-Type"), "application/json")
        let pretty = try JSONEncoding.prettyPrinted.encode(request(.post), withJSONObject: ["b": 1, "a": [true]])
        XCTAssertTrue(pretty.httpBody?.utf8Text.contains("\n") == true)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: pretty.httpBody ?? Data()) as? NSDictionary, ["a": [true], "b": 1])
        XCTAssertNil(try JSONEncoding.default.encode(request(.post), withJSONObject: nil).httpBody)
        let slashes = try JSONEncoding(options: [.withoutEscapingSlashes]).encode(request(.post), withJSONObject: ["u": "a/b", "a": 1])
        XCTAssertEqual(slashes.httpBody?.utf8Text, #"{"a":1,"u":"a/b"}"#)
        XCTAssertEqual(try JSONEncoding.default.encode(request(.post), withJSONObject: ["u": "a/b"]).httpBody?.utf8Text, #"{"u":"a\/b"}"#)
        XCTAssertTrue(JSONEncoding.prettyPrinted.prettyPrinted)
        XCTAssertFalse(JSONEncoding.default.prettyPrinted)
        XCTAssertThrowsError(try JSONEncoding.default.encode(request(.post), withJSONObject: "not an object")) { error in
            guard case ParameterEncodingFailure.invalidJSONObject = error else { return XCTFail("\(error)") }
        }
    }
}
