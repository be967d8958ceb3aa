import Foundation
import HTTPClient
import HTTPWire
@testable import Networking
import TestSupport
import XCTest

/// `HTTPClientError.transportFailure`, the one place the client's failures become what a
/// provider wraps: each case, with what it carries.
final class HTTPClientErrorTransportTests: XCTestCase {
    private let url = URL(string: "http://127.0.0.1:8080/a") ?? URL(fileURLWithPath: "/")

    private func transportError(_ error: HTTPClientError, file: StaticString = #filePath, line: UInt = #line) -> TransportError? {
        let converted = error.transportFailure as? TransportError
        XCTAssertNotNil(converted, "\(error) becomes a TransportError", file: file, line: line)
        return converted
    }

    func testTheClientsKindsBecomeTransportErrors() {
        XCTAssertEqual(transportError(.cannotConnect(host: "h", port: 81, errno: ECONNREFUSED)),
                       .cannotConnect(host: "h", port: 81, errno: ECONNREFUSED))
        XCTAssertEqual(transportError(.cannotFindHost(host: "h", code: 2)), .cannotFindHost(host: "h", code: 2))
        XCTAssertEqual(transportError(.connectionLost(errno: ECONNRESET)), .connectionLost(errno: ECONNRESET))
        XCTAssertEqual(transportError(.badResponse(.malformedStartLine(offset: 3))), .badResponse(.malformedStartLine(offset: 3)))
        XCTAssertEqual(transportError(.responseTooLarge(limit: 10)), .responseTooLarge(limit: 10))
        XCTAssertEqual(transportError(.tooManyRedirects(21)), .tooManyRedirects(21))
        XCTAssertEqual(transportError(.cancelled), .cancelled)
        XCTAssertEqual(transportError(.proxyRefused(status: 407, host: "10.0.0.1", port: 3128)), .proxyRefused(status: 407, proxy: "10.0.0.1:3128"))
        XCTAssertEqual(transportError(.proxyRefused(status: 502, host: "::1", port: 3128)), .proxyRefused(status: 502, proxy: "[::1]:3128"))
    }

    func testEachDeadlineBecomesItsPhaseWithTheEndpoint() {
        XCTAssertEqual(transportError(.timedOut(.connect, after: .seconds(1), host: "127.0.0.1", port: 80)),
                       .timedOut(.connect, after: .seconds(1), endpoint: "127.0.0.1:80"))
        XCTAssertEqual(transportError(.timedOut(.idle, after: .milliseconds(300), host: "h", port: 8080)),
                       .timedOut(.idle, after: .milliseconds(300), endpoint: "h:8080"))
        XCTAssertEqual(transportError(.timedOut(.overall, after: .seconds(2), host: "h", port: 1)),
                       .timedOut(.overall, after: .seconds(2), endpoint: "h:1"))
    }

    func testAnUnusableURLBecomesURLSessionsCodeWithTheFailingURL() {
        let bad = HTTPClientError.badURL(url).transportFailure as? URLError
        XCTAssertEqual(bad?.code, .badURL)
        XCTAssertEqual(bad?.failingURL, url)
        let https = URL(string: "https://127.0.0.1/") ?? url
        let unsupported = HTTPClientError.unsupportedScheme(https).transportFailure as? URLError
        XCTAssertEqual(unsupported?.code, .unsupportedURL)
        XCTAssertEqual(unsupported?.failingURL, https)
    }

    func testAFileErrorIsPassedOnAsItIs() {
        XCTAssertEqual(HTTPClientError.uploadFailed(underlying: TestError(4)).transportFailure as? TestError, TestError(4))
        XCTAssertEqual(HTTPClientError.downloadFailed(underlying: TestError(5)).transportFailure as? TestError, TestError(5))
    }

    /// A close-delimited body cut without `close_notify` is URLSession's lost connection, with the
    /// client's finding underneath, for the classifiers and for a caller who looks.
    func testAnUncleanShutdownIsALostConnectionWithTheClientsErrorUnderneath() throws {
        let failure = HTTPClientError.uncleanShutdown(bodyBytesReceived: 1_200).transportFailure
        let urlError = try XCTUnwrap(failure as? URLError)
        XCTAssertEqual(urlError.code, .networkConnectionLost)
        guard case .uncleanShutdown(1_200)? = urlError.errorUserInfo[NSUnderlyingErrorKey] as? HTTPClientError else {
            return XCTFail("the client's error is not underneath: \(urlError.errorUserInfo)")
        }
        XCTAssertTrue(failure.isLostConnection)
        XCTAssertTrue(ProviderError.underlying(failure, nil).isLostConnection)
        let fromTheParser = try XCTUnwrap(HTTPClientError(.incompleteClose(received: 3)).transportFailure as? URLError,
                                          "the parser's finding takes the same one path")
        XCTAssertEqual(fromTheParser.code, .networkConnectionLost)
        guard case .uncleanShutdown(3)? = fromTheParser.errorUserInfo[NSUnderlyingErrorKey] as? HTTPClientError else {
            return XCTFail("the client's error is not underneath: \(fromTheParser.errorUserInfo)")
        }
    }

    /// A parser's error reaches the transport's kinds only through the client's one conversion.
    func testTheTransportTakesTheClientsDecisionOnACutResponse() {
        func transport(_ wire: HTTPWireError) -> TransportError? { HTTPClientError(wire).transportFailure as? TransportError }
        XCTAssertEqual(transport(.truncatedHead(received: 4)), .connectionLost(errno: nil))
        XCTAssertEqual(transport(.truncatedBody(expected: 10, received: 2)), .connectionLost(errno: nil))
        XCTAssertEqual(transport(.bodyTooLarge(limit: 9)), .responseTooLarge(limit: 9))
        XCTAssertEqual(transport(.malformedChunk(offset: 1)), .badResponse(.malformedChunk(offset: 1)))
    }
}
