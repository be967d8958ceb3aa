import FeedServer
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// `http+unix://` URLs (the socket's path percent-encoded as the host) against a `FeedServer`
/// listening on a Unix domain socket: requests, pooling like any host, redirects on the socket.
final class UnixSocketTests: HTTPClientTestCase {
    private var path = ""

    override func setUpWithError() throws {
        path = NSTemporaryDirectory() + "feed-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sock"
        server = try FeedServer(configuration: .init(unixSocketPath: path))
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5)))
    }

    func testRequestsGoOverTheSocketAndShareOneConnection() throws {
        XCTAssertEqual(server.baseURL.scheme, "http+unix")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let echo = server.baseURL.appendingPathComponent("echo")
        for index in 0..<3 {
            var request = HTTPClientRequest(url: echo, method: "POST", body: .bytes(Data("n\(index)".utf8)))
            request.headers["X-Index"] = "\(index)"
            let response = try executeWithCompletion(request).get()
            XCTAssertEqual(response.status, 200)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            XCTAssertEqual((object["headers"] as? [String: String])?["Host"], "localhost")
            XCTAssertEqual((object["headers"] as? [String: String])?["X-Index"], "\(index)")
            XCTAssertEqual(object["path"] as? String, "/echo")
        }
        XCTAssertEqual(server.connectionCount, 1, "pooled like any host")
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: echo)).get().timings.remoteAddress, path)
        XCTAssertEqual(client.idleConnectionCount, 1)
        let redirected = try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("redirect/302/2"))).get()
        XCTAssertEqual(redirected.status, 200)
        XCTAssertEqual(redirected.url.path, "/echo", "the redirects stayed on the socket")
    }

    func testAMissingSocketCannotConnect() throws {
        let missing = try XCTUnwrap(URL(string: "http+unix://%2Fnonexistent%2Fnone.sock/echo"))
        let result = try executeWithCompletion(HTTPClientRequest(url: missing))
        guard case .failure(.cannotConnect(let host, _, let number)) = result else { return XCTFail("expected .cannotConnect, got \(result)") }
        XCTAssertEqual(host, "/nonexistent/none.sock")
        XCTAssertEqual(number, ENOENT)
    }

    func testStoppingTheServerRemovesTheSocketFile() throws {
        server.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
