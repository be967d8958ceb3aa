import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import HTTPWire
import Networking
import TestSupport
import XCTest

/// Every fault route of `FeedServer` through `SocketTransport` ends in the error URLSession
/// reports for the same event on Linux, classified the same way, and the process lives on.
final class SocketTransportFaultTests: SocketTransportTestCase {
    /// The response that makes FoundationNetworking stop the process; here it is a lost connection.
    func testHeadersCutShortAreALostConnectionAndTheProcessLives() throws {
        let error = try failure(get("cut-headers"))
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        XCTAssertNil(error.response)
        XCTAssertTrue(error.isLostConnection)
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
        XCTAssertEqual(try get("echo").get().statusCode, 200, "the transport still works afterwards")
    }

    func testGarbageIsABadServerResponse() throws {
        let error = try failure(get("garbage"))
        XCTAssertEqual(error.urlError?.code, .badServerResponse, "\(error)")
        // The parser's finding, kept through the client's error and the transport's, and bridged.
        let transport = try XCTUnwrap(error.underlyingError as? TransportError, "\(error)")
        guard case .badResponse(let wire) = transport else { return XCTFail("\(transport)") }
        XCTAssertEqual(transport.underlyingError as? HTTPWireError, wire)
        let bridged = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        XCTAssertNotNil(bridged?.userInfo[NSUnderlyingErrorKey], "ProviderError → TransportError → HTTPWireError as NSErrors")
        XCTAssertTrue(error.isBadResponse)
        XCTAssertFalse(error.isLostConnection || error.isNotConnection || error.isTimeout)
        XCTAssertNil(APIError.classify(error))
    }

    func testBodyShorterThanContentLengthIsALostConnectionWithThePartialResponse() throws {
        let error = try failure(get("wrong-length?actual=10&declared=20"))
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        XCTAssertEqual(error.response?.statusCode, 200)
        XCTAssertEqual(error.response?.data.count, 10)
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
    }

    func testBodyLongerThanContentLengthIsCutAtTheDeclaredLength() throws {
        let response = try get("wrong-length?actual=30&declared=20").get()
        XCTAssertEqual(response.data, Data(repeating: UInt8(ascii: "w"), count: 20))
        XCTAssertEqual(transport.idleConnectionCount, 0, "a connection with surplus bytes is not reused")
    }

    func testHalfABodyIsALostConnection() throws {
        let error = try failure(get("half"))
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        XCTAssertEqual(error.response?.data.count, 500)
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
    }

    func testDroppedConnectionIsALostConnectionAndNotRetriedOnAFreshConnection() throws {
        let error = try failure(get("drop"))
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
        XCTAssertEqual(server.requestCount(path: "/drop"), 1)
    }

    func testResetIsALostConnection() throws {
        let error = try failure(get("reset"))
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        XCTAssertTrue(error.isLostConnection)
    }

    func testHangPastTheIdleTimeoutIsATimeout() throws {
        transport = SocketTransport(configuration: .init(idleTimeout: .milliseconds(300)))
        let error = try failure(get("hang"))
        XCTAssertEqual(error.urlError?.code, .timedOut, "\(error)")
        guard case .requestTimeout? = APIError.classify(error) else { return XCTFail("\(error)") }
    }

    func testRequestTimeoutIntervalOverridesTheIdleTimeout() throws {
        var request = request("hang")
        request.timeoutInterval = 0.3
        let error = try failure(send(request).1)
        XCTAssertEqual(error.urlError?.code, .timedOut, "\(error)")
    }

    func testOverallDeadlineEndsASlowBodyWithTheHeadThatArrived() throws {
        transport = SocketTransport(configuration: .init(idleTimeout: .seconds(5), overallDeadline: .milliseconds(400)))
        let (outcome, result) = try send(request("drip?interval=100&count=100"))
        let error = try failure(result)
        XCTAssertEqual(error.urlError?.code, .timedOut, "\(error)")
        XCTAssertEqual(error.response?.statusCode, 200)
        XCTAssertLessThan(error.response?.data.count ?? 100, 100)
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server sees the connection closed")
        // Closed, the connection brings its loop no more bytes, and the drain follows the task
        // that closed it: a second report would have been made by then.
        drainSharedLoops()
        XCTAssertEqual(outcome.count, 1, "reported exactly once")
        XCTAssertEqual(transport.idleConnectionCount, 0, "the interrupted connection is not pooled")
    }

    /// Requests queued for a connection from the caller's thread with a deadline that has passed
    /// before they are queued: the loop's timer fires while the callers are still queueing, and
    /// each request times out once (the loop runs due timers before it reads any answer).
    func testWaitingRequestsWhoseDeadlineHasPassedEachTimeOutOnce() throws {
        transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(30),
                                                         overallDeadline: .zero))
        let outcomes = (0..<50).map { _ in Outcome() }
        for (index, outcome) in outcomes.enumerated() {
            _ = transport.send(request(index == 0 ? "hang" : "echo?waiting"), progress: nil, completion: outcome.record)
        }
        for outcome in outcomes {
            XCTAssertEqual(outcome.done.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(try failure(XCTUnwrap(outcome.first)).urlError?.code, .timedOut)
        }
        // A connection the pool opened for them outlives them (connects belong to the pool, not to
        // a request): one open after the last of them left is parked; whatever is still open is.
        drainSharedLoops()
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == self.transport.idleConnectionCount },
                      "every connection still open waits in the pool")
        XCTAssertLessThanOrEqual(transport.idleConnectionCount, 1, "one connection at most to the host")
        transport.close()
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server sees the connections closed")
        // Each request reported on its loop as it left the pool's queue; with no connection left,
        // the drain follows all of that.
        drainSharedLoops()
        XCTAssertEqual(outcomes.map(\.count), Array(repeating: 1, count: 50), "one answer each")
        transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(5)))
        XCTAssertEqual(try get("echo").get().statusCode, 200)
    }

    /// The first request holds the only connection past the deadline (its progress callback blocks the worker).
    func testOverallDeadlineAlsoBoundsWaitingForAPooledConnection() throws {
        transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(30), overallDeadline: .milliseconds(500)))
        let first = Outcome()
        let started = DispatchSemaphore(value: 0)
        _ = transport.send(request("drip?interval=10&count=5"), progress: { _ in
            started.signal()
            Thread.sleep(forTimeInterval: 1.5)
        }, completion: first.record)
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success, "the first request holds the only connection")
        let (_, result) = try send(request("echo"))
        XCTAssertEqual(try failure(result).urlError?.code, .timedOut)
        XCTAssertEqual(first.done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(first.first.flatMap { try? failure($0).urlError?.code }, .timedOut)
    }

    /// Without an overall deadline, a request waiting for a pooled connection (all in use) fails
    /// after the connect timeout, as a connect timeout naming the endpoint, instead of waiting
    /// forever; the request holding the connection is not disturbed.
    func testWaitingForAPooledConnectionEndsAfterTheConnectTimeout() throws {
        transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 1, connectTimeout: .milliseconds(400), idleTimeout: .seconds(30)))
        let first = Outcome()
        let holder = transport.send(request("hang"), progress: nil, completion: first.record)
        defer { holder.cancel() }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/hang") == 1 }, "the first request holds the only connection")
        let (_, result) = try send(request("echo"))
        guard case .underlying(let root, _) = try failure(result), let kind = root as? TransportError else {
            return XCTFail("not a TransportError: \(result)")
        }
        XCTAssertEqual(kind, .timedOut(.connect, after: .milliseconds(400), endpoint: "127.0.0.1:\(server.port)"))
        XCTAssertEqual(server.requestCount(path: "/echo"), 0, "never sent")
        XCTAssertEqual(first.count, 0, "the holder still waits for its answer")
    }

    /// A kept-alive connection idle in the pool for `idleConnectionTimeout` is closed: the server
    /// sees it go, and the next request opens a new one.
    func testAPooledConnectionIdleTooLongIsClosed() throws {
        transport = SocketTransport(configuration: .init(idleTimeout: .seconds(5), idleConnectionTimeout: .milliseconds(300)))
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 1)
        XCTAssertTrue(waitUntil(timeout: 20) { self.transport.idleConnectionCount == 0 }, "still pooled after its idle timeout")
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server saw the connection closed")
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(server.connectionCount, 2, "the next request opened a new connection")
    }

    func testErrorStatusIsASuccessfulTransportResultWithTheBody() throws {
        let response = try get("status/503").get()
        XCTAssertEqual(response.statusCode, 503)
        let classified = APIError.classify(ProviderError.statusCode(response))
        XCTAssertEqual(classified?.statusCode, 503)
        XCTAssertEqual(classified?.errorCodes, ["E503"])
    }

    func testRefusedPortIsCannotConnectToHost() throws {
        let port = try LoopbackListener.refusedPort()
        let (_, result) = try send(URLRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/"))))
        let error = try failure(result)
        XCTAssertEqual(error.urlError?.code, .cannotConnectToHost, "\(error)")
        XCTAssertEqual(error.underlyingError as? TransportError, .cannotConnect(host: "127.0.0.1", port: Int(port), errno: ECONNREFUSED),
                       "the client's host, port and errno, kept")
        XCTAssertTrue(error.isNotConnection)
        XCTAssertTrue(APIError.classify(error)?.isNoNetwork == true)
    }

    func testOtherSchemesAreUnsupported() throws {
        let (_, result) = try send(URLRequest(url: try XCTUnwrap(URL(string: "ftp://127.0.0.1:1/"))))
        let error = try failure(result)
        XCTAssertEqual(error.urlError?.code, .unsupportedURL)
        let urlError = try XCTUnwrap(error.underlyingError as? URLError, "\(error)")
        guard case .unsupportedScheme(let url)? = urlError.errorUserInfo[NSUnderlyingErrorKey] as? HTTPClientError else {
            return XCTFail("the client's unsupportedScheme is under the URLError: \(urlError.errorUserInfo)")
        }
        XCTAssertEqual(url.scheme, "ftp")
    }

    func testResponseOverTheSizeLimitFails() throws {
        transport = SocketTransport(configuration: .init(maximumResponseSize: 1000))
        let error = try failure(get("bytes/5000"))
        guard case .underlying(let underlying, let response) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(underlying as? TransportError, .responseTooLarge(limit: 1000))
        XCTAssertEqual(response?.statusCode, 200)
        XCTAssertTrue(error.isBadResponse)
    }
}
