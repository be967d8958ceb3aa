import FeedServer
import Foundation
import HTTPClient
import HTTPWire
import TestSupport
import XCTest

/// A request's own deadline, redirect policy and decompression policy, against a `FeedServer`
/// on 127.0.0.1: real slow bodies, real queues, real redirect chains and a real gzip bomb
/// (`/bomb/{n}`: n zero bytes compressed about 160 to 1 by the server).
final class RequestPoliciesTests: HTTPClientTestCase {
    // MARK: Deadline

    func testARequestsDeadlineEndsItWhileItsBodyIsComing() throws {
        let sent = ContinuousClock.now
        let request = HTTPClientRequest(url: url("drip?interval=100&count=50"), deadline: sent + .milliseconds(400))
        let result = try executeWithCompletion(request)
        guard case .failure(.timedOut(.overall, let after, "127.0.0.1", let port)) = result else {
            return XCTFail("expected .timedOut(.overall), got \(result)")
        }
        XCTAssertEqual(port, Int(server.port))
        XCTAssertGreaterThan(after, .milliseconds(300), "measured from the exchange's start")
        XCTAssertLessThanOrEqual(after, .milliseconds(400))
        XCTAssertLessThan(ContinuousClock.now - sent, .seconds(4), "the 5 s body was cut at the deadline")
    }

    func testARequestsDeadlineBoundsItsWaitForAConnection() throws {
        client = HTTPClient(configuration: .init(maximumConnectionsPerHost: 1, connectTimeout: .seconds(10), idleTimeout: .seconds(10)))
        let holder = client.execute(HTTPClientRequest(url: url("hang"))) { _ in }
        defer { holder.cancel() }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/hang") == 1 })
        let started = ContinuousClock.now
        let result = try executeWithCompletion(HTTPClientRequest(url: url("echo"), deadline: .now + .milliseconds(300)))
        guard case .failure(.timedOut(.overall, _, _, _)) = result else { return XCTFail("expected .timedOut(.overall), got \(result)") }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "not the 10 s connect timeout")
        XCTAssertEqual(server.requestCount(path: "/echo"), 0, "it never got the connection")
    }

    func testARequestsDeadlineReplacesTheClientsOverallDeadline() throws {
        client = HTTPClient(configuration: .init(idleTimeout: .seconds(5), overallDeadline: .milliseconds(100)))
        let late = try executeWithCompletion(HTTPClientRequest(url: url("delay/400"), deadline: .now + .seconds(10)))
        XCTAssertEqual(try late.get().status, 200)
        let result = try executeWithCompletion(HTTPClientRequest(url: url("delay/400")))
        guard case .failure(.timedOut(.overall, let after, _, _)) = result else { return XCTFail("expected .timedOut(.overall), got \(result)") }
        XCTAssertEqual(after, .milliseconds(100), "without its own, a request keeps the client's")
    }

    // MARK: Redirects

    func testDisallowReturnsTheRedirectAsItIs() throws {
        let response = try executeWithCompletion(HTTPClientRequest(url: url("redirect/302/2"), redirects: .disallow)).get()
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.head.headers["Location"], "/redirect/302/1")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "redirecting to /redirect/302/1")
        XCTAssertEqual(response.url, url("redirect/302/2"))
        XCTAssertEqual(server.requestCount(path: "/redirect/302/1"), 0, "nothing followed")
    }

    func testFollowMaxBoundsTheChainAndKeepsMethodAndBodyOn307() throws {
        let body = Data("payload".utf8)
        let refused = try executeWithCompletion(HTTPClientRequest(url: url("redirect/307/3"), method: "POST", body: .bytes(body),
                                                                  redirects: .follow(max: 2)))
        guard case .failure(.tooManyRedirects(3)) = refused else { return XCTFail("expected .tooManyRedirects(3), got \(refused)") }
        let followed = try executeWithCompletion(HTTPClientRequest(url: url("redirect/307/3"), method: "POST", body: .bytes(body),
                                                                   redirects: .follow(max: 3))).get()
        XCTAssertEqual(followed.status, 200)
        XCTAssertEqual(followed.url, url("echo"))
        let echoed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(followed.body)) as? [String: Any])
        XCTAssertEqual(echoed["method"] as? String, "POST")
        XCTAssertEqual(echoed["body"] as? String, body.base64EncodedString())
    }

    func testWithoutAPolicyTheClientsMaximumRedirectsHolds() throws {
        client = HTTPClient(configuration: .init(maximumRedirects: 1))
        let result = try executeWithCompletion(HTTPClientRequest(url: url("redirect/301/2")))
        guard case .failure(.tooManyRedirects(2)) = result else { return XCTFail("expected .tooManyRedirects(2), got \(result)") }
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("redirect/301/2"), redirects: .follow(max: 2))).get().status, 200,
                       "a request's own limit replaces the client's")
    }

    // MARK: Decompression

    /// `/bomb/16777216` is 16 MiB of zeros in about 105 KB of gzip.
    private static let bombSize = 16 << 20

    func testABombStopsAtASizeLimitWithATypedError() throws {
        let result = try executeWithCompletion(HTTPClientRequest(url: url("bomb/\(Self.bombSize)"), decompression: .enabled(limit: .size(1 << 20))))
        guard case .failure(.decompressionLimitExceeded(let limit, let compressed)) = result else {
            return XCTFail("expected .decompressionLimitExceeded, got \(result)")
        }
        XCTAssertEqual(limit, 1 << 20)
        XCTAssertGreaterThan(compressed, 50_000)
        XCTAssertLessThan(compressed, 1 << 20, "what arrived was far smaller than what it expands to")
    }

    func testABombStopsAtARatioLimit() throws {
        let result = try executeWithCompletion(HTTPClientRequest(url: url("bomb/\(Self.bombSize)"), decompression: .enabled(limit: .ratio(100))))
        guard case .failure(.decompressionLimitExceeded(let limit, let compressed)) = result else {
            return XCTFail("expected .decompressionLimitExceeded, got \(result)")
        }
        XCTAssertEqual(limit, compressed * 100)
        // The same body within a ratio it keeps to (about 160) decodes whole.
        let small = try executeWithCompletion(HTTPClientRequest(url: url("bomb/1048576?coding=deflate"), decompression: .enabled(limit: .ratio(200)))).get()
        XCTAssertEqual(small.body.count, 1 << 20)
        XCTAssertTrue(BulkBytes.all(0, in: small.body))
        XCTAssertEqual(small.head.headers["Content-Encoding"], "deflate")
    }

    func testWithoutALimitTheMaximumResponseSizeStillHolds() throws {
        client = HTTPClient(configuration: .init(maximumResponseSize: 4 << 20))
        let result = try executeWithCompletion(HTTPClientRequest(url: url("bomb/\(Self.bombSize)"), decompression: .enabled(limit: .none)))
        guard case .failure(.responseTooLarge(4_194_304)) = result else { return XCTFail("expected .responseTooLarge, got \(result)") }
        let looser = try executeWithCompletion(HTTPClientRequest(url: url("bomb/\(Self.bombSize)"), decompression: .enabled(limit: .size(16 << 20))))
        guard case .failure(.responseTooLarge(4_194_304)) = looser else {
            return XCTFail("a limit above the client's maximum: the maximum is what stops it, got \(looser)")
        }
    }

    func testDisabledSendsNoAcceptEncodingAndReturnsTheBodyAsReceived() throws {
        let echoed = try executeWithCompletion(HTTPClientRequest(url: url("echo"), decompression: .disabled)).get()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(echoed.body)) as? [String: Any])
        let headers = try XCTUnwrap(object["headers"] as? [String: String])
        XCTAssertNil(headers.keys.first { $0.lowercased() == "accept-encoding" }, "\(headers)")
        let raw = try executeWithCompletion(HTTPClientRequest(url: url("bomb/\(Self.bombSize)"), decompression: .disabled)).get()
        XCTAssertEqual(raw.head.headers["Content-Length"], String(raw.body.count))
        XCTAssertEqual(Array(raw.body.prefix(3)), [0x1F, 0x8B, 8], "the gzip member itself")
    }
}

/// Request header fields as an ordered list: repeats arrive at the server in the caller's order.
final class RequestHeaderFieldsTests: HTTPClientTestCase {
    func testTwoViaFieldsArriveInOrderAtTheEcho() throws {
        var request = HTTPClientRequest(url: url("echo"))
        request.headers.add(name: "Via", value: "1.1 edge")
        request.headers.add(name: "X-Between", value: "1")
        request.headers.add(name: "Via", value: "1.1 origin")
        request.headers["Accept"] = "application/json"
        let response = try executeWithCompletion(request).get()
        let echoed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let headers = try XCTUnwrap(echoed["headers"] as? [String: String])
        XCTAssertEqual(headers["Via"], "1.1 edge, 1.1 origin", "both fields, in the order given")
        XCTAssertEqual(headers["Accept"], "application/json")
        XCTAssertEqual(headers["X-Between"], "1")
    }

    func testADictionaryStillMakesARequest() throws {
        let fields: [String: String] = ["X-One": "1", "X-Two": "2"]
        let request = HTTPClientRequest(url: url("echo"), headers: fields)
        XCTAssertEqual(request.headers.fields.map(\.name), ["X-One", "X-Two"])
        let echoed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try executeWithCompletion(request).get().body)) as? [String: Any])
        XCTAssertEqual((echoed["headers"] as? [String: String])?["X-Two"], "2")
    }
}
