import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// The messages of classified failures name what failed, produced for real on loopback through
/// `classifiedRequest`: the refused host and port, the host and wait of a timeout, the URL of
/// an HTTP error.
final class APIErrorMessageTests: SocketTransportTestCase {
    /// The classified failure of `target` sent through `transport` (bounded wait).
    private func failure(_ target: ServerRoute, transport: any HTTPTransport,
                         file: StaticString = #filePath, line: UInt = #line) throws -> APIError {
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let results = Recorder<Result<Response, any Error>>()
        let subscription = provider.rx.classifiedRequest(target).subscribe { results.append($0) }
        defer { subscription.dispose() }
        XCTAssertTrue(waitUntil(timeout: 10) { results.count > 0 }, "answered", file: file, line: line)
        guard case .failure(let error)? = results.values.first, let apiError = error as? APIError else {
            XCTFail("expected an APIError, got \(String(describing: results.values.first))", file: file, line: line)
            throw TestError(1)
        }
        return apiError
    }

    /// The target of `path` on 127.0.0.1:`port`, where no server is.
    private func route(_ path: String, port: UInt16) throws -> ServerRoute {
        let base = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/"))
        return ServerRoute(baseURL: base, path: path)
    }

    func testARefusedLoopbackPortNamesTheAddressNotTheInternet() throws {
        let port = try LoopbackListener.refusedPort()
        let error = try failure(try route("echo", port: port), transport: transport)
        guard case .internetConnection = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(error.errorDescription, "Could not connect to 127.0.0.1:\(port) (connection refused).")
    }

    func testARefusedLoopbackPortThroughURLSessionNamesTheAddress() throws {
        let port = try LoopbackListener.refusedPort()
        let error = try failure(try route("echo", port: port), transport: URLSessionTransport())
        guard case .internetConnection = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(error.errorDescription, "Could not connect to 127.0.0.1:\(port).", "\(error.underlyingError.map { String(reflecting: $0) } ?? "")")
    }

    func testATransportTimeoutNamesTheHostAndTheWait() throws {
        transport = SocketTransport(configuration: .init(idleTimeout: .milliseconds(300)))
        let error = try failure(route("hang"), transport: transport)
        guard case .requestTimeout = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(error.errorDescription, "The request to 127.0.0.1:\(server.port) timed out after 300 ms.")
    }

    func testAnHTTPErrorNamesTheURL() throws {
        var target = route("status/404")
        target.task = .requestParameters(parameters: ["token": "secret"], encoding: URLEncoding.queryString)
        let error = try failure(target, transport: transport)
        guard case .restError(let root, 404, _) = error else { return XCTFail("got \(error)") }
        let url = "http://127.0.0.1:\(server.port)/status/404"
        XCTAssertEqual(error.errorDescription?.hasPrefix("Client error (404 Not Found) from \(url)"), true,
                       error.errorDescription ?? "")
        XCTAssertEqual(root.localizedDescription, "Status code 404 for \(url) didn't fall within the given range.")
        XCTAssertFalse(error.errorDescription?.contains("secret") ?? true, "the query is left out")
    }

    func testAPublicHostStaysANoInternetMessageAndPrivateRangesAreRecognised() {
        let refused = { (host: String) in
            APIError.internetConnection(ProviderError.underlying(
                TransportError.cannotConnect(host: host, port: 80, errno: ECONNREFUSED), nil)).errorDescription
        }
        XCTAssertEqual(refused("93.184.215.14"), "No internet connection.")
        XCTAssertEqual(refused("172.32.0.1"), "No internet connection.")
        for host in ["10.1.2.3", "172.16.0.1", "192.168.1.1", "localhost", "::1", "fd00::1"] {
            XCTAssertEqual(refused(host)?.hasPrefix("Could not connect to \(host):80"), true, host)
        }
    }
}
