import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

private struct Item: Decodable, Sendable, Equatable {
    let id: Int
    let title: String
}

private struct Defaults: Decodable, Sendable, Equatable {
    var id: Int?
}

final class ResponseTests: LeakCheckingTestCase {
    private func response(_ status: Int = 200, _ body: String) -> Response {
        Response(statusCode: status, data: Data(body.utf8))
    }

    private func assertCarries(_ error: any Error, _ expected: Response, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual((error as? ProviderError)?.response, expected, file: file, line: line)
    }

    func testFiltersPassOrFailWithTheWholeResponse() throws {
        let notFound = response(404, #"{"message":"nope"}"#)
        XCTAssertEqual(try response(204, "").filterSuccessfulStatusCodes().statusCode, 204)
        XCTAssertEqual(try response(302, "").filterSuccessfulStatusAndRedirectCodes().statusCode, 302)
        XCTAssertThrowsError(try response(302, "").filterSuccessfulStatusCodes())
        XCTAssertThrowsError(try notFound.filterSuccessfulStatusAndRedirectCodes()) { error in
            guard case ProviderError.statusCode(let carried) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(carried.data, notFound.data)
            XCTAssertEqual(carried.statusCode, 404)
        }
        XCTAssertEqual(try notFound.filter(statusCodes: 400..<500).statusCode, 404)
        XCTAssertEqual(try notFound.filter(statusCodes: [401, 404]).statusCode, 404)
        XCTAssertThrowsError(try notFound.filter(statusCodes: [401, 403]))
        XCTAssertEqual(try notFound.filter(statusCode: 404).statusCode, 404)
        XCTAssertThrowsError(try notFound.filter(statusCode: 200)) { self.assertCarries($0, notFound) }
        XCTAssertThrowsError(try response(199, "").filterSuccessfulStatusCodes())
        XCTAssertThrowsError(try response(300, "").filterSuccessfulStatusCodes())
    }

    func testMapJSON() throws {
        let object = try response(200, #"{"a":[1,2]}"#).mapJSON() as? [String: Any]
        XCTAssertEqual(object?["a"] as? [Int], [1, 2])
        XCTAssertEqual(try response(200, "3").mapJSON() as? Int, 3)
        let bad = response(200, "<html>")
        XCTAssertThrowsError(try bad.mapJSON()) { error in
            guard case ProviderError.jsonMapping(let carried) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(carried, bad)
        }
        XCTAssertThrowsError(try response(200, "").mapJSON())
        XCTAssertTrue(try response(200, "").mapJSON(failsOnEmptyData: false) is NSNull)
    }

    func testMapString() throws {
        XCTAssertEqual(try response(200, "plain ✓").mapString(), "plain ✓")
        let nested = response(200, #"{"data":{"user":{"name":"Ann","age":3}}}"#)
        XCTAssertEqual(try nested.mapString(atKeyPath: "data.user.name"), "Ann")
        XCTAssertThrowsError(try nested.mapString(atKeyPath: "data.user.age")) { error in
            guard case ProviderError.stringMapping(let carried) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(carried, nested)
        }
        XCTAssertThrowsError(try nested.mapString(atKeyPath: "data.missing"))
        XCTAssertThrowsError(try Response(statusCode: 200, data: Data([0xFF, 0xFE])).mapString()) { error in
            guard case ProviderError.stringMapping = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try response(200, "not json").mapString(atKeyPath: "a")) { error in
            guard case ProviderError.jsonMapping = error else { return XCTFail("\(error)") }
        }
    }

    func testMapDecodable() throws {
        XCTAssertEqual(try response(200, #"{"id":1,"title":"t"}"#).map(Item.self), Item(id: 1, title: "t"))
        let wrapped = response(200, #"{"result":{"items":[{"id":2,"title":"u"}],"count":1,"name":"n"}}"#)
        XCTAssertEqual(try wrapped.map([Item].self, atKeyPath: "result.items"), [Item(id: 2, title: "u")])
        XCTAssertEqual(try wrapped.map(Int.self, atKeyPath: "result.count"), 1)
        XCTAssertEqual(try wrapped.map(String.self, atKeyPath: "result.name"), "n")

        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Snake: Decodable, Sendable { let itemCount: Int }
        XCTAssertEqual(try response(200, #"{"item_count":5}"#).map(Snake.self, using: decoder).itemCount, 5)
    }

    func testMapDecodesIntoANonSendableClassOnEveryForm() throws {
        final class Profile: Decodable {
            var login = ""
        }
        let body = response(200, #"{"login":"octocat"}"#)
        XCTAssertEqual(try body.map(Profile.self).login, "octocat")
        let logins = Recorder<String>()
        _ = Single.just(body).map(Profile.self).map(\.login).subscribe(onSuccess: { logins.append($0) })
        _ = Observable.just(body).map(Profile.self).map(\.login).subscribe(onNext: { logins.append($0) })
        XCTAssertEqual(logins.values, ["octocat", "octocat"], "Single and Observable forms, synchronous here")
        let page = try response(200, #"{"hasMore":false,"list":[{"login":"a"}]}"#).map(ListPage<Profile>.self)
        XCTAssertEqual(page.list.map(\.login), ["a"], "a page of non-Sendable items")
    }

    func testMapDecodableFailures() {
        let wrongShape = response(200, #"{"id":"x"}"#)
        XCTAssertThrowsError(try wrongShape.map(Item.self)) { error in
            guard case ProviderError.objectMapping(let underlying, let carried) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(underlying is DecodingError)
            XCTAssertEqual(carried, wrongShape)
        }
        let wrapped = response(200, #"{"result":{}}"#)
        XCTAssertThrowsError(try wrapped.map(Item.self, atKeyPath: "result.missing")) { error in
            guard case ProviderError.jsonMapping(let carried) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(carried, wrapped)
        }
        XCTAssertThrowsError(try response(200, "").map(Item.self)) { error in
            guard case ProviderError.objectMapping = error else { return XCTFail("\(error)") }
        }
    }

    func testEmptyDataWithFailsOnEmptyDataFalse() throws {
        XCTAssertEqual(try response(200, "").map(Defaults.self, failsOnEmptyData: false), Defaults(id: nil))
        XCTAssertEqual(try response(200, "").map([Defaults].self, failsOnEmptyData: false), [Defaults(id: nil)])
        XCTAssertEqual(try response(200, "").map(Defaults.self, atKeyPath: "a.b", failsOnEmptyData: false), Defaults(id: nil))
        XCTAssertThrowsError(try response(200, "").map(Item.self, failsOnEmptyData: false))
    }

    func testEqualityAndDescription() {
        let request = URLRequest(url: URL(string: "http://127.0.0.1/x")!)
        let http = HTTPURLResponse(url: URL(string: "http://127.0.0.1/x")!, statusCode: 201, httpVersion: "HTTP/1.1",
                                   headerFields: ["Retry-After": "5"])
        let full = Response(statusCode: 201, data: Data("ab".utf8), request: request, response: http)
        XCTAssertEqual(full, Response(statusCode: 201, data: Data("ab".utf8), request: request, response: http))
        XCTAssertNotEqual(full, Response(statusCode: 201, data: Data("ab".utf8)))
        XCTAssertNotEqual(full, Response(statusCode: 201, data: Data("abc".utf8), request: request, response: http))
        XCTAssertEqual(full.debugDescription, "Status Code: 201, Data Length: 2")
        XCTAssertEqual(full.headerValue("retry-after"), "5")
    }

    func testProviderErrorAccessors() {
        let carried = response(500, "x")
        XCTAssertEqual(ProviderError.statusCode(carried).response, carried)
        XCTAssertEqual(ProviderError.jsonMapping(carried).response, carried)
        XCTAssertEqual(ProviderError.stringMapping(carried).response, carried)
        XCTAssertEqual(ProviderError.objectMapping(URLError(.unknown), carried).response, carried)
        XCTAssertEqual(ProviderError.underlying(URLError(.unknown), carried).response, carried)
        XCTAssertNil(ProviderError.underlying(URLError(.unknown), nil).response)
        XCTAssertNil(ProviderError.requestMapping("u").response)
        XCTAssertNil(ProviderError.encodableMapping(URLError(.unknown)).response)
        XCTAssertNil(ProviderError.parameterEncoding(URLError(.unknown)).response)
        XCTAssertEqual(ProviderError.statusCode(carried).errorDescription, "Status code 500 didn't fall within the given range.")
        XCTAssertEqual(ProviderError.requestMapping("::").errorDescription, "Failed to map Endpoint to a URLRequest: ::")
    }
}
