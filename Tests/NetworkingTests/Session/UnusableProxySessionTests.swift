import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import Networking
import TestSupport
import XCTest

/// A proxy variable naming a proxy the client cannot use, as a provider's caller sees it through
/// `SocketTransport`: URLSession's `.unsupportedURL` with the client's finding underneath, the
/// password masked, and no request sent direct.
final class UnusableProxySessionTests: FeedServerTestCase {
    func testASOCKS4aProxyInTheEnvironmentIsAnUnsupportedURLAndNothingGoesDirect() throws {
        let environment = ProxyEnvironment(["http_proxy": "socks4a://app:pa55@127.0.0.1:9"])
        let transport = SocketTransport(configuration: .init(proxy: .environment(environment)))
        defer { transport.close() }
        let error = try SessionTestSupport.failure(URLRequest(url: server.baseURL.appendingPathComponent("echo")), through: transport)
        XCTAssertEqual(error.urlError?.code, .unsupportedURL)
        guard case .underlying(let underlying, _) = error, let urlError = underlying as? URLError,
              let clientError = urlError.userInfo[NSUnderlyingErrorKey] as? HTTPClientError,
              case .unsupportedProxy(let value) = clientError else { return XCTFail("\(error)") }
        XCTAssertEqual(value, "socks4a://app:***@127.0.0.1:9")
        XCTAssertEqual(urlError.localizedDescription, "the proxy socks4a://app:***@127.0.0.1:9 is not one this client can use")
        XCTAssertFalse(error.isNotConnection, "a setting to change, not a network to wait for")
        XCTAssertEqual(server.connectionCount, 0)
    }
}
