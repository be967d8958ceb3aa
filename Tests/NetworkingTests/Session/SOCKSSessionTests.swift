import EventLoopIO
import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import Networking
import TestSupport
import XCTest

/// A SOCKS5 proxy through `SocketTransport` as an app sees it, against microsocks: a provider
/// behind `all_proxy=socks5h://...` reaches its server, `connectionProxyDictionary`'s SOCKS keys
/// are honoured, and a refused `CONNECT` is a `TransportError` with URLSession's code. Skipped,
/// saying why, where microsocks is not installed.
final class SOCKSSessionTests: FeedServerTestCase {
    private var proxy: MicroSocks!

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard let started = try MicroSocks.start() else {
            throw XCTSkip("microsocks is not installed (Debian's package microsocks; .ci/run installs it)")
        }
        proxy = started
    }

    override func tearDown() {
        proxy?.stop()
        proxy = nil
        super.tearDown()
    }

    func testAnAppBehindASOCKS5ProxyReachesItsServer() throws {
        let environment = ProxyEnvironment(["all_proxy": proxy.url("socks5h")])
        let transport = SocketTransport(configuration: .init(proxy: .environment(environment)))
        let response = try SessionTestSupport.echo(at: server.baseURL, through: transport)
        XCTAssertEqual(response.statusCode, 200)
        let echo = try JSONDecoder().decode(EchoedRequest.self, from: response.data)
        XCTAssertEqual(echo.field("User-Agent"), DefaultHeaders.standard["User-Agent"], "the session's fields still go")
        XCTAssertNil(echo.field("Proxy-Authorization"))
        XCTAssertEqual(proxy.tunnels(), ["127.0.0.1:\(server.port)"], "the request went through the proxy's tunnel")
        transport.close()
    }

    func testTheSOCKSKeysOfConnectionProxyDictionary() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = ["SOCKSEnable": 1, "SOCKSProxy": "127.0.0.1", "SOCKSPort": Int(proxy.port)]
        let transport = SocketTransport(configuration: configuration)
        XCTAssertEqual(transport.configuration.proxy, .environment(ProxyEnvironment(["all_proxy": "socks5h://127.0.0.1:\(proxy.port)"])))
        let response = try SessionTestSupport.send(URLRequest(url: server.baseURL.appendingPathComponent("echo")), through: transport)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(proxy.tunnels().count, 1)
        transport.close()
    }

    func testARefusedSOCKSConnectIsATransportErrorWithURLSessionsCode() throws {
        let closed = try TCPSocket.listen()
        let port = try closed.localPort()
        closed.close()
        let transport = SocketTransport(configuration: .init(proxy: .http(try XCTUnwrap(ProxyEndpoint(proxy.url("socks5"))))))
        let error = try SessionTestSupport.failure(URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!), through: transport)
        guard case .underlying(let underlying, _) = error, let transportError = underlying as? TransportError else { return XCTFail("\(error)") }
        XCTAssertEqual(transportError, .proxyRefused(status: 5, proxy: "127.0.0.1:\(proxy.port)"), "RFC 1928's connection refused")
        XCTAssertEqual(error.urlError?.code, .cannotConnectToHost)
        XCTAssertTrue(error.isNotConnection)
        transport.close()
    }
}
