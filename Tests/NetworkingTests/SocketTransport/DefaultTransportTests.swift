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
        let subscription = provider.rx.request(route("cut-headers"))
            .classifyErrors()
            .subscribe { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { results.count > 0 })
        subscription.dispose()
        guard case .failure(let error)? = results.values.first, case .internetConnection(let root)? = error as? APIError else {
            return XCTFail("got \(String(describing: results.values.first))")
        }
        XCTAssertEqual(root.urlError?.code, .networkConnectionLost)
    }

    // MARK: One client by default

    // `DefaultTransport()` sends through the process's one client (`HTTPClient.shared`), so
    // providers made with it share kept-alive connections; a provider given a transport of its
    // own keeps its own pool.

    /// Sends one request through `provider` and waits (bounded) for its status.
    private func status(through provider: NetworkProvider<ServerRoute>) -> Int? {
        let results = Recorder<Result<Response, any Error>>()
        let subscription = provider.rx.request(route("echo")).subscribe { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { results.count > 0 }, "the request answered")
        subscription.dispose()
        return try? results.values.first?.get().statusCode
    }

    func testTwoDefaultProvidersToOneHostShareOneConnection() throws {
        let first = NetworkProvider<ServerRoute>()
        let second = NetworkProvider<ServerRoute>()
        XCTAssertTrue((first.transport as? DefaultTransport)?.socketTransport === SocketTransport.shared)
        XCTAssertEqual(status(through: first), 200)
        // The first answer's connection goes back to the pool before the answer is reported.
        XCTAssertEqual(status(through: second), 200)
        XCTAssertEqual(status(through: first), 200)
        XCTAssertEqual(server.requestCount(path: "/echo"), 3)
        XCTAssertEqual(server.connectionCount, 1, "both providers sent on the one kept-alive connection")
    }

    func testAProviderGivenItsOwnTransportKeepsItsOwnConnections() throws {
        let shared = NetworkProvider<ServerRoute>()
        let own = SocketTransport()
        defer { own.close() }
        let apart = NetworkProvider<ServerRoute>(transport: DefaultTransport(socketTransport: own))
        XCTAssertEqual(status(through: shared), 200)
        XCTAssertEqual(status(through: apart), 200)
        XCTAssertEqual(status(through: apart), 200)
        XCTAssertEqual(server.connectionCount, 2, "one connection in the shared pool, one in the transport's own")
        XCTAssertEqual(own.idleConnectionCount, 1)
    }
}
