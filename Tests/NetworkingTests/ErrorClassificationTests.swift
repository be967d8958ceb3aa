import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EventLoopIO
import Networking
import TestSupport
import XCTest

private enum FakeReactiveError: TimeoutClassifiable {
    case timeout
    case other
    var representsTimeout: Bool { self == .timeout }
}

final class ErrorClassificationTests: LeakCheckingTestCase {
    private func nsURLError(_ code: Int, description: String? = nil, underlying: NSError? = nil) -> NSError {
        var info: [String: Any] = [:]
        if let description { info[NSLocalizedDescriptionKey] = description }
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return NSError(domain: NSURLErrorDomain, code: code, userInfo: info)
    }

    func testNotConnectionCodes() {
        for code in [URLError.Code.notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed] {
            let error = URLError(code)
            XCTAssertTrue(error.isNotConnection, "\(code)")
            XCTAssertFalse(error.isTimeout)
            XCTAssertFalse(error.isLostConnection)
            XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
        }
        XCTAssertTrue(NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNREFUSED)).isNotConnection)
    }

    func testLostConnectionCodes() {
        XCTAssertTrue(URLError(.networkConnectionLost).isLostConnection)
        XCTAssertTrue(NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)).isLostConnection)
        XCTAssertTrue(NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNABORTED)).isLostConnection)
        XCTAssertTrue(POSIXError(.ECONNRESET).isLostConnection)
        XCTAssertTrue(nsURLError(-1011, description: "Empty reply from server").isLostConnection)
        XCTAssertTrue(nsURLError(-1, description: "transfer closed with 90 bytes remaining to read").isLostConnection)
        let weird = nsURLError(-1011, description: "Weird server reply")
        XCTAssertFalse(weird.isLostConnection)
        XCTAssertTrue(weird.isBadResponse)
        XCTAssertTrue(URLError(.unsupportedURL).isBadResponse)
        XCTAssertFalse(URLError(.unknown).isLostConnection)
        XCTAssertTrue(APIError.classify(URLError(.networkConnectionLost))?.isNoNetwork == true)
        XCTAssertEqual(APIError.internetConnection(URLError(.networkConnectionLost)).errorDescription, "The network connection was lost.")
        XCTAssertEqual(APIError.internetConnection(URLError(.cannotConnectToHost)).errorDescription, "No internet connection.")
    }

    func testTimeouts() {
        XCTAssertTrue(URLError(.timedOut).isTimeout)
        XCTAssertTrue(nsURLError(-1001).isTimeout)
        XCTAssertTrue(FakeReactiveError.timeout.isTimeout)
        XCTAssertFalse(FakeReactiveError.other.isTimeout)
        XCTAssertTrue(ProviderError.underlying(FakeReactiveError.timeout, nil).isTimeout)
        guard case .requestTimeout? = APIError.classify(FakeReactiveError.timeout) else { return XCTFail("timeout") }
        XCTAssertNil(APIError.classify(FakeReactiveError.other))
    }

    func testURLErrorIsFoundAtTheRoot() {
        let root = nsURLError(-1004, underlying: NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNREFUSED)))
        let wrapped = ProviderError.underlying(APIError.internetConnection(ProviderError.underlying(root, nil)), nil)
        XCTAssertEqual(wrapped.urlError?.code, .cannotConnectToHost)
        XCTAssertTrue(wrapped.isNotConnection)
        let outer = nsURLError(-1, underlying: nsURLError(-1001))
        XCTAssertEqual(outer.urlError?.code, .timedOut)
        XCTAssertTrue(outer.isTimeout)
        XCTAssertNil(ProviderError.requestMapping("x").urlError)
        XCTAssertTrue(URLError(.cancelled).isCancelled)
        XCTAssertNil(APIError.classify(URLError(.cancelled)))
    }

    func testRESTClassificationReadsStatusCodeAndMessage() throws {
        let body = Data(#"{"code":"E_RATE","message":"slow down"}"#.utf8)
        let error = ProviderError.statusCode(Response(statusCode: 429, data: body))
        let classified = try XCTUnwrap(APIError.classify(error))
        guard case .restError(_, let status, let code) = classified else { return XCTFail("\(classified)") }
        XCTAssertEqual(status, 429)
        XCTAssertEqual(code, "E_RATE")
        XCTAssertEqual(classified.statusCode, 429)
        XCTAssertEqual(classified.errorCodes, ["E_RATE"])
        XCTAssertFalse(classified.isNoNetwork)
        XCTAssertEqual(classified.errorDescription, "Client error (429 Too Many Requests): slow down")
    }

    func testRESTClassificationWithNumericCodeNestedErrorAndNonJSONBody() throws {
        let numeric = APIError.rest(from: ProviderError.statusCode(Response(statusCode: 500, data: Data(#"{"code":1042,"msg":"db"}"#.utf8))))
        XCTAssertEqual(numeric?.errorCodes, ["1042"])
        XCTAssertEqual(numeric?.errorDescription, "Server error (500 Internal Server Error): db")
        let nested = APIError.rest(from: ProviderError.statusCode(Response(statusCode: 403, data: Data(#"{"error":{"code":"denied","message":"no"}}"#.utf8))))
        XCTAssertEqual(nested?.errorCodes, ["denied"])
        let html = APIError.rest(from: ProviderError.statusCode(Response(statusCode: 502, data: Data("<html>bad gateway</html>".utf8))))
        guard case .restError(_, 502, nil)? = html else { return XCTFail("\(String(describing: html))") }
        XCTAssertEqual(html?.errorDescription, "Server error (502 Bad Gateway)")
        XCTAssertNil(APIError.rest(from: URLError(.timedOut)))
        XCTAssertNil(APIError.rest(from: ProviderError.requestMapping("u")))
        XCTAssertNil(APIError.rest(from: ProviderError.jsonMapping(Response(statusCode: 200, data: Data("<".utf8)))))
        XCTAssertEqual(APIError.rest(from: ProviderError.jsonMapping(Response(statusCode: 500, data: Data("<".utf8))))?.statusCode, 500)
        XCTAssertEqual(APIError.rest(from: ProviderError.statusCode(Response(statusCode: 304, data: Data())))?.statusCode, 304)
    }

    func testEachCatcherPassesOnWhatItDoesNotOwn() {
        XCTAssertNil(APIError.timeout(from: URLError(.cannotConnectToHost)))
        XCTAssertNil(APIError.internetConnection(from: URLError(.timedOut)))
        XCTAssertNotNil(APIError.timeout(from: ProviderError.underlying(URLError(.timedOut), nil)))
        XCTAssertNotNil(APIError.internetConnection(from: ProviderError.underlying(URLError(.cannotFindHost), nil)))
        let already = APIError.restError(URLError(.unknown), statusCode: 400, errorCode: nil)
        XCTAssertEqual(APIError.classify(already)?.statusCode, 400)
        XCTAssertNil(APIError.timeout(from: already))
        XCTAssertEqual(APIError.requestTimeout(URLError(.timedOut)).errorCodes, ["-1001"])
        XCTAssertEqual(APIError.empty.errorDescription, "The server returned no data.")
        XCTAssertEqual(APIError.requestTimeout(URLError(.timedOut)).errorDescription, "The request timed out.")
        XCTAssertEqual(APIError.summary(forStatus: 301), "Unexpected redirect (301 Moved Permanently)")
        XCTAssertEqual(APIError.summary(forStatus: 599), "Server error (599)")
    }
}
