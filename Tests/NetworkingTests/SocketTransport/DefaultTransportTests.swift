import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// The provider's default transport sends `http://` through `SocketTransport` and other schemes
/// through `URLSessionTransport`.
final class DefaultTransportTests: SocketTransportTestCase {
    func testProviderDefaultsToTheSchemeRoutingTransport() {
        XCTAssertTrue(NetworkProvider<ServerRoute>().transport is DefaultTransport)
    }

    func testHTTPGoesThroughTheSocketTransport() throws {
        let routing = DefaultTransport(socketTransport: transport)
        XCTAssertEqual(try send(request("echo"), on: routing).1.get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 1, "the socket transport's pool holds the connection")
    }

    /// `SocketTransport` alone rejects `https` as unsupported (-1002); routed, URLSession tries to connect.
    /// On Linux `https://` goes through `SocketTransport` when the system's OpenSSL loads (else
    /// through URLSession), and a refused port is a connection error either way.
    func testHTTPSGoesThroughTheSocketTransportWhenTLSLoads() throws {
        let port = try LoopbackListener.refusedPort()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        let routing = DefaultTransport(socketTransport: transport, urlSessionTransport: URLSessionTransport(configuration: configuration))
        let url = try XCTUnwrap(URL(string: "https://127.0.0.1:\(port)/"))
        let error = try failure(send(URLRequest(url: url), on: routing).1)
        XCTAssertNotEqual(error.urlError?.code, .unsupportedURL, "\(error)")
        XCTAssertTrue(error.isNotConnection, "\(error)")
        let throughSockets = (try? TLSLibrary.load()) != nil
        XCTAssertEqual(error.underlyingError is TransportError, throughSockets, "\(error)")
    }

    /// The response that stops a URLSession client ends in a classified error through the default provider.
    func testDefaultProviderClassifiesHeadersCutShort() {
        let provider = NetworkProvider<ServerRoute>()
        let results = Recorder<Result<Response, any Error>>()
        let subscription = provider.rx.request(ServerRoute(baseURL: server.baseURL, path: "cut-headers"))
            .classifyErrors()
            .subscribe { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { results.count > 0 })
        subscription.dispose()
        guard case .failure(let error)? = results.values.first, case .internetConnection(let root)? = error as? APIError else {
            return XCTFail("got \(String(describing: results.values.first))")
        }
        XCTAssertEqual(root.urlError?.code, .networkConnectionLost)
    }
}
