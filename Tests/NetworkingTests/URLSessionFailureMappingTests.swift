import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Networking
import TestSupport
import XCTest

/// `URLSessionFailureMapping`, the one file that reads libcurl's message text: one test per case
/// (its text and its near misses), codes read by code, and each case produced for real by
/// URLSession against a `FeedServer` on 127.0.0.1.
final class URLSessionFailureMappingTests: XCTestCase {
    private func urlError(_ code: URLError.Code, _ message: String? = nil) -> URLError {
        URLError(code, userInfo: message.map { [NSLocalizedDescriptionKey: $0] } ?? [:])
    }

    func testTheTableHoldsExactlyTheTwoTextCases() {
        XCTAssertEqual(URLSessionFailureMapping.lostConnectionMessages.map(\.code), [.badServerResponse, .unknown])
    }

    func testAnEmptyReplyIsALostConnectionOnlyWithItsText() {
        XCTAssertTrue(URLSessionFailureMapping.isLostConnection(urlError(.badServerResponse, "Empty reply from server")))
        XCTAssertTrue(URLSessionFailureMapping.isLostConnection(urlError(.badServerResponse, "EMPTY REPLY FROM SERVER")))
        XCTAssertFalse(URLSessionFailureMapping.isLostConnection(urlError(.badServerResponse, "Weird server reply")))
        XCTAssertFalse(URLSessionFailureMapping.isLostConnection(urlError(.unknown, "Empty reply from server")),
                       "the text counts only with its code")
    }

    func testATransferClosedEarlyIsALostConnectionOnlyWithItsText() {
        XCTAssertTrue(URLSessionFailureMapping.isLostConnection(urlError(.unknown, "transfer closed with 500 bytes remaining to read")))
        XCTAssertFalse(URLSessionFailureMapping.isLostConnection(urlError(.unknown, "something else")))
        XCTAssertFalse(URLSessionFailureMapping.isLostConnection(urlError(.unknown)))
        XCTAssertFalse(URLSessionFailureMapping.isLostConnection(urlError(.badServerResponse, "transfer closed with 1 bytes remaining")),
                       "the text counts only with its code")
    }

    func testCodesAreReadByCodeWhateverTheText() {
        XCTAssertTrue(URLSessionFailureMapping.isLostConnection(urlError(.networkConnectionLost)))
        XCTAssertTrue(URLSessionFailureMapping.isLostConnection(urlError(.networkConnectionLost, "anything")))
        XCTAssertFalse(URLSessionFailureMapping.isLostConnection(urlError(.timedOut, "Empty reply from server")))
        XCTAssertFalse(URLSessionFailureMapping.isLostConnection(urlError(.cannotConnectToHost, "transfer closed")))
    }

    /// The error URLSession reports for `path` on a fresh `FeedServer`.
    private func urlSessionError(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> URLError {
        let server = try FeedServer()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let transport = URLSessionTransport(configuration: configuration)
        let answers = Recorder<Result<Response, ProviderError>>()
        let done = DispatchSemaphore(value: 0)
        _ = transport.send(URLRequest(url: server.baseURL.appendingPathComponent(path)), progress: nil) { result in
            answers.append(result)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, file: file, line: line)
        guard case .failure(let error)? = answers.values.first, let root = error.urlError else {
            XCTFail("expected a URLError, got \(String(describing: answers.values.first))", file: file, line: line)
            throw TestError(1)
        }
        return root
    }

    func testURLSessionsAnswerToAnEmptyReplyIsALostConnection() throws {
        let error = try urlSessionError("drop")
        #if os(Linux)
        XCTAssertEqual(error.code, .networkConnectionLost, "libcurl's case, read by its text, with Apple's code: \(error.localizedDescription)")
        #endif
        XCTAssertTrue(URLSessionFailureMapping.isLostConnection(error), "code \(error.code.rawValue): \(error.localizedDescription)")
        XCTAssertTrue(error.isLostConnection)
        XCTAssertFalse(error.isBadResponse)
    }

    func testURLSessionsAnswerToABodyCutShortIsALostConnection() throws {
        let error = try urlSessionError("half")
        #if os(Linux)
        XCTAssertEqual(error.code, .networkConnectionLost, "libcurl's case, read by its text, with Apple's code: \(error.localizedDescription)")
        #endif
        XCTAssertTrue(URLSessionFailureMapping.isLostConnection(error), "code \(error.code.rawValue): \(error.localizedDescription)")
        XCTAssertTrue(error.isLostConnection)
    }
}
