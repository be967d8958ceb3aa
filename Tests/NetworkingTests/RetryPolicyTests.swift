import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

final class RetryPolicyTests: LeakCheckingTestCase {
    private func statusError(_ status: Int, headers: [String: String] = [:]) -> ProviderError {
        let url = URL(string: "http://127.0.0.1/")!
        let http = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        return .statusCode(Response(statusCode: status, data: Data(), response: http))
    }

    func testRetriesOnlyTransientErrors() {
        let policy = RetryPolicy(maxAttempts: 3)
        let retried: [any Error] = [URLError(.cannotConnectToHost), URLError(.networkConnectionLost), URLError(.timedOut),
                                    URLError(.notConnectedToInternet), statusError(408), statusError(429), statusError(500),
                                    statusError(503), ProviderError.underlying(URLError(.timedOut), nil),
                                    APIError.restError(URLError(.unknown), statusCode: 502, errorCode: nil)]
        for error in retried {
            XCTAssertTrue(policy.shouldRetry(error: error, method: .get, attempt: 1), "\(error)")
        }
        let final: [any Error] = [statusError(400), statusError(404), statusError(401), URLError(.cancelled),
                                  URLError(.badURL), ProviderError.jsonMapping(Response(statusCode: 500, data: Data()))]
        for error in final {
            XCTAssertFalse(policy.shouldRetry(error: error, method: .get, attempt: 1), "\(error)")
        }
    }

    func testIdempotentMethodsOnlyUnlessOptedIn() {
        let policy = RetryPolicy(maxAttempts: 3)
        for method in [HTTPMethod.get, .head, .put, .delete, .options] {
            XCTAssertTrue(policy.shouldRetry(error: URLError(.timedOut), method: method, attempt: 1), "\(method)")
        }
        for method in [HTTPMethod.post, .patch] {
            XCTAssertFalse(policy.shouldRetry(error: URLError(.timedOut), method: method, attempt: 1), "\(method)")
        }
        let optedIn = RetryPolicy(maxAttempts: 3, retriesNonIdempotent: true)
        XCTAssertTrue(optedIn.shouldRetry(error: URLError(.timedOut), method: .post, attempt: 1))
    }

    func testMaxAttempts() {
        let policy = RetryPolicy(maxAttempts: 3)
        XCTAssertTrue(policy.shouldRetry(error: URLError(.timedOut), method: .get, attempt: 2))
        XCTAssertFalse(policy.shouldRetry(error: URLError(.timedOut), method: .get, attempt: 3))
        XCTAssertFalse(RetryPolicy.none.shouldRetry(error: URLError(.timedOut), method: .get, attempt: 1))
    }

    func testExponentialBackoffWithDeterministicJitter() {
        let noJitter = RetryPolicy(baseDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(1), jitter: 0)
        XCTAssertEqual(noJitter.delay(forAttempt: 1), .milliseconds(100))
        XCTAssertEqual(noJitter.delay(forAttempt: 2), .milliseconds(200))
        XCTAssertEqual(noJitter.delay(forAttempt: 3), .milliseconds(400))
        XCTAssertEqual(noJitter.delay(forAttempt: 5), .seconds(1))
        let jittered = RetryPolicy(baseDelay: .milliseconds(100), multiplier: 2, jitter: 0.5, random: { 0.5 })
        XCTAssertEqual(jittered.delay(forAttempt: 2), .milliseconds(150))
        let fullJitter = RetryPolicy(baseDelay: .seconds(1), jitter: 1, random: { 0.75 })
        XCTAssertEqual(fullJitter.delay(forAttempt: 1), .milliseconds(250))
    }

    func testRetryAfterSecondsAndHTTPDate() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(60), jitter: 0)
        XCTAssertEqual(policy.delay(forAttempt: 1, error: statusError(503, headers: ["Retry-After": "7"])), .seconds(7))
        let now = Date(timeIntervalSince1970: 1_445_412_470)
        let dated = statusError(429, headers: ["retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"])
        XCTAssertEqual(policy.delay(forAttempt: 1, error: dated, now: now), .seconds(10))
        XCTAssertEqual(policy.delay(forAttempt: 1, error: statusError(503, headers: ["Retry-After": "3600"])), .seconds(60))
        XCTAssertEqual(policy.delay(forAttempt: 1, error: statusError(503, headers: ["Retry-After": "soon"])), .milliseconds(100))
        XCTAssertEqual(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", now: now.addingTimeInterval(100)), .zero)
        XCTAssertNil(RetryAfter.parse("-5"))
    }
}
