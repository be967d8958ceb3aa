import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
@testable import Networking
import Reactive
import TestSupport
import XCTest

/// `http+unix://` URLs through `SocketTransport` and the provider's `DefaultTransport`, against a
/// `FeedServer` listening on a Unix domain socket (URLSession cannot reach one).
final class SocketTransportUnixSocketTests: SocketTransportTestCase {
    private let path = NSTemporaryDirectory() + "feed-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sock"

    override var serverConfiguration: FeedServer.Configuration { FeedServer.Configuration(unixSocketPath: path) }

    func testTheTransportSendsOverTheSocket() throws {
        XCTAssertEqual(server.baseURL.scheme, "http+unix")
        var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
        request.httpMethod = "POST"
        request.httpBody = Data("over the socket".utf8)
        let response = try send(request).1.get()
        XCTAssertEqual(response.statusCode, 200)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        XCTAssertEqual(object["path"] as? String, "/echo")
        XCTAssertEqual(object["body"] as? String, Data("over the socket".utf8).base64EncodedString())
        XCTAssertEqual(response.timings?.remoteAddress, path)
        XCTAssertEqual(transport.idleConnectionCount, 1, "pooled like any host")
    }

    func testTheDefaultTransportRoutesUnixSocketURLsToTheSocketTransport() throws {
        let url = server.baseURL.appendingPathComponent("echo")
        #if canImport(FoundationNetworking)
        XCTAssertTrue(DefaultTransport.usesSocketTransport(for: URLRequest(url: url)))
        // Schemes are case-insensitive (RFC 3986 3.1).
        for scheme in ["HTTP", "Http+Unix", "hTTp"] {
            XCTAssertTrue(DefaultTransport.usesSocketTransport(for: URLRequest(url: URL(string: "\(scheme)://api.test/a")!)), scheme)
        }
        XCTAssertEqual(DefaultTransport.usesSocketTransport(for: URLRequest(url: URL(string: "HTTPS://api.test/a")!)), DefaultTransport.tlsLoads)
        for other in ["ftp://api.test/a", "file:///tmp/a", "httpx://api.test/a"] {
            XCTAssertFalse(DefaultTransport.usesSocketTransport(for: URLRequest(url: URL(string: other)!)), other)
        }
        #endif
        let provider = NetworkProvider<ServerRoute>(transport: DefaultTransport(socketTransport: transport))
        let results = Recorder<Result<Response, any Error>>()
        let subscription = provider.rx.request(route("echo")).subscribe { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { results.count > 0 }, "the request answered")
        subscription.dispose()
        let response = try XCTUnwrap(results.values.first).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.request?.url, url)
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
        XCTAssertEqual(transport.idleConnectionCount, 1, "the socket transport's pool holds the connection")
    }
}
