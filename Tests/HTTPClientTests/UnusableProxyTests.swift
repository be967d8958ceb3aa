import EventLoopIO
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// A proxy variable naming a proxy the client cannot use (a `socks4a://` proxy, another scheme)
/// fails its scheme's requests before anything connects, as curl fails such a transfer, instead
/// of sending them direct past the proxy; `no_proxy` still sends the hosts it covers direct.
/// Real sockets: the origin is the test's FeedServer, and a real listener stands where the
/// unusable proxy would be.
final class UnusableProxyTests: HTTPClientTestCase {
    func testAnFTPOrSOCKS4aProxyFailsItsSchemesRequestsAndNothingConnects() throws {
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        let proxyPort = try listener.localPort()
        let environment = ProxyEnvironment(["https_proxy": "ftp://app:pa55@127.0.0.1:\(proxyPort)",
                                            "http_proxy": "socks4a://127.0.0.1:\(proxyPort)"])
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), proxy: .environment(environment)))

        let secure = try executeWithCompletion(HTTPClientRequest(url: try XCTUnwrap(URL(string: "https://127.0.0.1:\(server.port)/echo"))))
        guard case .failure(.unsupportedProxy(let secureProxy)) = secure else { return XCTFail("\(secure)") }
        XCTAssertEqual(secureProxy, "ftp://app:***@127.0.0.1:\(proxyPort)", "the password masked")
        let plain = try executeWithCompletion(HTTPClientRequest(url: url("echo")))
        guard case .failure(.unsupportedProxy(let plainProxy)) = plain else { return XCTFail("\(plain)") }
        XCTAssertEqual(plainProxy, "socks4a://127.0.0.1:\(proxyPort)")

        XCTAssertEqual(server.connectionCount, 0, "nothing went direct")
        XCTAssertNil(try listener.accept(timeout: .milliseconds(200)), "nor to the proxy")
    }

    func testNoProxyStillSendsTheHostsItCoversDirect() throws {
        let environment = ProxyEnvironment(["http_proxy": "socks4a://proxy.invalid:1080", "no_proxy": "127.0.0.1"])
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), proxy: .environment(environment)))
        let response = try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(server.connectionCount, 1)
        let other = try executeWithCompletion(HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://localhost:\(server.port)/echo"))))
        guard case .failure(.unsupportedProxy("socks4a://proxy.invalid:1080")) = other else { return XCTFail("\(other)") }
        XCTAssertEqual(server.connectionCount, 1, "a host no_proxy does not cover is refused")
    }
}
