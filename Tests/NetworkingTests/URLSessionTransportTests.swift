import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import Synchronization
import TestSupport
import XCTest

/// Real URLSession traffic, on 127.0.0.1 only.
final class URLSessionTransportTests: LeakCheckingTestCase {
    private typealias Outcome = TransportOutcome

    private func configuration(requestTimeout: TimeInterval = 10) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        return configuration
    }

    @discardableResult
    private func send(_ url: String, method: String = "GET", transport: URLSessionTransport, wait: TimeInterval = 15,
                      file: StaticString = #filePath, line: UInt = #line) throws -> (Outcome, Result<Response, ProviderError>) {
        var request = URLRequest(url: try XCTUnwrap(URL(string: url), file: file, line: line))
        request.httpMethod = method
        return try TransportOutcome.sending(request, through: transport, wait: wait, file: file, line: line)
    }

    private func failure(_ result: Result<Response, ProviderError>, file: StaticString = #filePath, line: UInt = #line) -> ProviderError? {
        guard case .failure(let error) = result else {
            XCTFail("expected a failure, got \(result)", file: file, line: line)
            return nil
        }
        return error
    }

    func testSuccessCarriesStatusBodyHeadersAndProgress() throws {
        let body = #"{"id":1,"title":"t"}"#
        let listener = try LoopbackListener(.respond(Data("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nX-Test: yes\r\nConnection: close\r\n\r\n\(body)".utf8)))
        defer { listener.stop() }
        let transport = URLSessionTransport(configuration: configuration())
        let (outcome, result) = try send("http://127.0.0.1:\(listener.port)/items?x=1", transport: transport)
        let response = try result.get()
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(response.data.utf8Text, body)
        XCTAssertEqual(response.headerValue("x-test"), "yes")
        XCTAssertEqual(response.request?.url?.query, "x=1")
        XCTAssertEqual(outcome.progress.withLock { $0.last }, 1)
    }

    func testErrorStatusIsASuccessfulTransportResultWithTheBody() throws {
        let body = #"{"code":"E1","message":"down"}"#
        let listener = try LoopbackListener(.respond(Data("HTTP/1.1 503 Service Unavailable\r\nContent-Length: \(body.utf8.count)\r\nRetry-After: 2\r\nConnection: close\r\n\r\n\(body)".utf8)))
        defer { listener.stop() }
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", transport: URLSessionTransport(configuration: configuration()))
        let response = try result.get()
        XCTAssertEqual(response.statusCode, 503)
        let classified = APIError.classify(ProviderError.statusCode(response))
        XCTAssertEqual(classified?.statusCode, 503)
        XCTAssertEqual(classified?.errorCodes, ["E1"])
        XCTAssertEqual(RetryPolicy(maxDelay: .seconds(10)).delay(forAttempt: 1, error: ProviderError.statusCode(response)), .seconds(2))
    }

    func testSettingsReachTheSession() {
        let transport = URLSessionTransport(configuration: configuration(requestTimeout: 3), maximumConnectionsPerHost: 32)
        XCTAssertEqual(transport.configuration.httpMaximumConnectionsPerHost, 32)
        XCTAssertEqual(transport.configuration.timeoutIntervalForRequest, 3)
        XCTAssertEqual(URLSessionTransport().maximumResponseSize, 50 * 1024 * 1024)
    }

    func testRefusedPortIsCannotConnectAndNotConnection() throws {
        let port = try LoopbackListener.refusedPort()
        let (_, result) = try send("http://127.0.0.1:\(port)/", transport: URLSessionTransport(configuration: configuration()))
        let error = try XCTUnwrap(failure(result))
        XCTAssertEqual(error.urlError?.code, .cannotConnectToHost, "\(error)")
        XCTAssertTrue(error.isNotConnection)
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
        XCTAssertTrue(RetryPolicy().shouldRetry(error: error, method: .get, attempt: 1))
    }

    /// A host with a 64-character label: glibc refuses it before sending any DNS query
    /// (checked with strace), so this stays off the network, unlike `nonexistent.invalid`.
    func testUnknownHostIsCannotFindHost() throws {
        let host = String(repeating: "a", count: 64) + ".invalid"
        let started = Date()
        let (_, result) = try send("http://\(host)/", transport: URLSessionTransport(configuration: configuration(requestTimeout: 5)))
        let error = try XCTUnwrap(failure(result))
        if error.urlError?.code != .cannotFindHost {
            throw XCTSkip("name resolution here gave \(error) after \(Date().timeIntervalSince(started)) s, not -1003")
        }
        XCTAssertTrue(error.isNotConnection)
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
    }

    func testSilentServerTimesOutAfterTimeoutIntervalForRequest() throws {
        let listener = try LoopbackListener(.silent)
        defer { listener.stop() }
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", transport: URLSessionTransport(configuration: configuration(requestTimeout: 1)))
        let error = try XCTUnwrap(failure(result))
        XCTAssertEqual(error.urlError?.code, .timedOut, "\(error)")
        XCTAssertTrue(error.isTimeout)
        guard case .requestTimeout? = APIError.classify(error) else { return XCTFail("\(error)") }
        XCTAssertEqual(APIError.classify(error)?.errorDescription, "The request to 127.0.0.1:\(listener.port) timed out after 1 s.")
        XCTAssertEqual(listener.acceptedCount, 1)
    }

    func testOverallDeadlineIsEnforcedByTheTransport() throws {
        let listener = try LoopbackListener(.respondAndHold(Data("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial".utf8)))
        defer { listener.stop() }
        let transport = URLSessionTransport(configuration: configuration(requestTimeout: 30), overallDeadline: .milliseconds(700))
        let (outcome, result) = try send("http://127.0.0.1:\(listener.port)/", transport: transport)
        let error = try XCTUnwrap(failure(result))
        guard case .underlying(let underlying, let partial) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(underlying as? TransportError, .timedOut(.overall, after: .milliseconds(700), endpoint: "127.0.0.1:\(listener.port)"))
        XCTAssertEqual(error.urlError?.code, .timedOut)
        XCTAssertEqual(APIError.classify(error)?.errorDescription, "The request to 127.0.0.1:\(listener.port) timed out after 700 ms.")
        XCTAssertEqual(partial?.statusCode, 200, "the head that arrived is kept")
        XCTAssertTrue(error.isTimeout)
        try assertReportedOnce(outcome, transport: transport)
    }

    /// Checks that `outcome` got no report after its first, once a later request on the same
    /// transport has finished: the session's delegate queue is serial, and the cancelled task's
    /// own completion (the one that could report twice) is queued when it is cancelled, so it
    /// comes before the later request's.
    private func assertReportedOnce(_ outcome: Outcome, transport: URLSessionTransport,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let later = try LoopbackListener(.respond(Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)))
        defer { later.stop() }
        let (_, result) = try send("http://127.0.0.1:\(later.port)/", transport: transport, file: file, line: line)
        XCTAssertEqual(try result.get().statusCode, 200, file: file, line: line)
        XCTAssertEqual(outcome.count, 1, "reported once", file: file, line: line)
    }

    func testCancelReportsNothing() throws {
        let listener = try LoopbackListener(.silent)
        defer { listener.stop() }
        let transport = URLSessionTransport(configuration: configuration(requestTimeout: 2))
        let outcome = Outcome()
        let cancellable = transport.send(URLRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/")!), progress: nil,
                                         completion: outcome.record)
        let accepted = Date().addingTimeInterval(5)
        while listener.acceptedCount == 0, Date() < accepted { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertFalse(cancellable.isCancelled)
        cancellable.cancel()
        XCTAssertTrue(cancellable.isCancelled)
        // Sent after the cancel to the same silent server, the later request times out 2 s after
        // it started, after the cancelled one would have: the session reports both, in that
        // order, on its serial delegate queue.
        let (_, later) = try send("http://127.0.0.1:\(listener.port)/", transport: transport)
        XCTAssertEqual(failure(later)?.urlError?.code, .timedOut)
        XCTAssertEqual(outcome.count, 0, "a cancelled request must report nothing, not even the 2 s timeout")
    }

    func testAcceptAndCloseIsALostConnection() throws {
        let listener = try LoopbackListener(.acceptAndClose)
        defer { listener.stop() }
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", transport: URLSessionTransport(configuration: configuration()))
        let error = try XCTUnwrap(failure(result))
        XCTAssertTrue([URLError.Code.badServerResponse, .networkConnectionLost].contains(error.urlError?.code), "\(error)")
        XCTAssertTrue(error.isLostConnection, "\(error) \(error.localizedDescription)")
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
    }

    /// Closing after reading the request gives curl's "Empty reply from server" (-1011) on Linux.
    func testEmptyReplyIsALostConnection() throws {
        let listener = try LoopbackListener(.readAndClose)
        defer { listener.stop() }
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", transport: URLSessionTransport(configuration: configuration()))
        let error = try XCTUnwrap(failure(result))
        XCTAssertTrue([URLError.Code.badServerResponse, .networkConnectionLost].contains(error.urlError?.code), "\(error)")
        XCTAssertTrue(error.isLostConnection, "\(error) \(error.localizedDescription)")
        XCTAssertFalse(error.isBadResponse)
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
    }

    /// A complete line of non-HTTP bytes (not a head cut short, which crashes FoundationNetworking).
    func testNonHTTPBytesAreABadResponse() throws {
        let listener = try LoopbackListener(.respond(Data("SSH-2.0-NotHTTP\r\njunk\r\n\r\n".utf8)))
        defer { listener.stop() }
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", transport: URLSessionTransport(configuration: configuration()))
        let error = try XCTUnwrap(failure(result))
        XCTAssertEqual(error.urlError?.code, .badServerResponse, "Apple's code for libcurl's -1002 HTTP/0.9: \(error)")
        XCTAssertTrue(error.isBadResponse)
        XCTAssertFalse(error.isLostConnection || error.isNotConnection || error.isTimeout)
        XCTAssertNil(APIError.classify(error))
    }

    func testBodyCutShortIsALostConnection() throws {
        let listener = try LoopbackListener(.respond(Data("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nonly-ten-b".utf8)))
        defer { listener.stop() }
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", transport: URLSessionTransport(configuration: configuration()))
        let error = try XCTUnwrap(failure(result))
        XCTAssertTrue(error.isLostConnection, "\(error) \(error.localizedDescription)")
    }

    func testResponseOverTheSizeLimitFails() throws {
        let body = String(repeating: "x", count: 4096)
        let listener = try LoopbackListener(.respond(Data("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)))
        defer { listener.stop() }
        let transport = URLSessionTransport(configuration: configuration(), maximumResponseSize: 1000)
        let (outcome, result) = try send("http://127.0.0.1:\(listener.port)/", transport: transport)
        let error = try XCTUnwrap(failure(result))
        guard case .underlying(let underlying, _) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(underlying as? TransportError, .responseTooLarge(limit: 1000))
        try assertReportedOnce(outcome, transport: transport)
    }

    func testUnannouncedBodyOverTheSizeLimitFails() throws {
        let body = String(repeating: "y", count: 4096)
        let listener = try LoopbackListener(.respond(Data("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n\(body)".utf8)))
        defer { listener.stop() }
        let transport = URLSessionTransport(configuration: configuration(), maximumResponseSize: 1000)
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", transport: transport)
        let error = try XCTUnwrap(failure(result))
        guard case .underlying(let underlying, _) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(underlying as? TransportError, .responseTooLarge(limit: 1000))
    }

    func testAHeadAnnouncingALengthOverTheLimitSucceeds() throws {
        // A HEAD answer carries the length of the body a GET would get, and no body.
        let listener = try LoopbackListener(.respond(Data("HTTP/1.1 200 OK\r\nContent-Length: 4096\r\nConnection: close\r\n\r\n".utf8)))
        defer { listener.stop() }
        let transport = URLSessionTransport(configuration: configuration(), maximumResponseSize: 1000)
        let (_, result) = try send("http://127.0.0.1:\(listener.port)/", method: "HEAD", transport: transport)
        let response = try result.get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.headerValue("Content-Length"), "4096")
        XCTAssertTrue(response.data.isEmpty)
    }
}
