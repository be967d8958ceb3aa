import Foundation
@testable import HTTPClient
import XCTest

/// Where a request goes under `Configuration.proxy`: the pool key, the request target and the
/// proxy's credentials, decided per request (`no_proxy`).
final class ProxyRoutingTests: XCTestCase {
    private let proxy = ProxyEndpoint("http://user:p%40ss@proxy.test:3128")!

    private func target(_ url: String, _ setting: HTTPClient.Configuration.Proxy) throws -> SocketRequestTarget {
        try SocketRequestTarget.read(URL(string: url)!, proxy: setting).get()
    }

    func testPlainHTTPGoesToTheProxyInAbsoluteFormWithItsCredentials() throws {
        let target = try target("http://api.test:8080/a/b?c=d", .http(proxy))
        XCTAssertEqual(target.key, ConnectionPoolKey(host: "proxy.test", port: 3128, proxy: proxy))
        XCTAssertEqual(target.requestTarget, "http://api.test:8080/a/b?c=d")
        XCTAssertEqual(target.hostHeader, "api.test:8080")
        XCTAssertEqual(target.proxyAuthorization, "Basic " + Data("user:p@ss".utf8).base64EncodedString())
        let head = String(decoding: SocketRequestEncoding.head(HTTPClientRequest(url: target.url), target: target, framing: .length(0),
                                                               acceptsCompression: false).bytes, as: UTF8.self)
        XCTAssertTrue(head.hasPrefix("GET http://api.test:8080/a/b?c=d HTTP/1.1\r\n"), head)
        XCTAssertTrue(head.contains("\r\nProxy-Authorization: Basic dXNlcjpwQHNz\r\n"), head)
        XCTAssertTrue(head.contains("\r\nHost: api.test:8080\r\n"), head)
    }

    func testARequestsOwnProxyAuthorizationWins() throws {
        let target = try target("http://api.test/", .http(proxy))
        let request = HTTPClientRequest(url: target.url, headers: ["proxy-authorization": "Bearer mine"])
        let head = String(decoding: SocketRequestEncoding.head(request, target: target, framing: .length(0), acceptsCompression: false).bytes,
                          as: UTF8.self)
        XCTAssertEqual(head.components(separatedBy: "roxy-").count, 2, head)
        XCTAssertTrue(head.contains("proxy-authorization: Bearer mine"), head)
    }

    func testHTTPSTunnelsToTheOriginAndIsPooledPerProxyAndOrigin() throws {
        let target = try target("https://api.test/x", .http(proxy))
        XCTAssertEqual(target.key, ConnectionPoolKey(secure: true, host: "api.test", port: 443, proxy: proxy))
        XCTAssertTrue(target.key.tunnels)
        XCTAssertEqual(target.key.connectHost, "proxy.test")
        XCTAssertEqual(target.key.connectPort, 3128)
        XCTAssertEqual(target.requestTarget, "/x")
        XCTAssertNil(target.proxyAuthorization, "the credentials go with the CONNECT")
        XCTAssertNotEqual(target.key, try self.target("https://api.test/x", .none).key, "never shared with a direct connection")
        XCTAssertNotEqual(target.key, try self.target("https://other.test/x", .http(proxy)).key)
    }

    func testPlainHTTPTunnelsToTheOriginWhenAskedWithTheCredentialsOnTheCONNECT() throws {
        let target = try SocketRequestTarget.read(URL(string: "http://api.test:8080/a/b?c=d")!, proxy: .http(proxy), tunnelsPlainHTTP: true).get()
        XCTAssertEqual(target.key, ConnectionPoolKey(host: "api.test", port: 8080, proxy: proxy, tunnelsPlainHTTP: true))
        XCTAssertTrue(target.key.tunnels)
        XCTAssertFalse(target.key.secure)
        XCTAssertEqual(target.key.connectHost, "proxy.test")
        XCTAssertEqual(target.key.connectPort, 3128)
        XCTAssertEqual(target.requestTarget, "/a/b?c=d")
        XCTAssertNil(target.proxyAuthorization, "the credentials go with the CONNECT")
        let head = String(decoding: SocketRequestEncoding.head(HTTPClientRequest(url: target.url), target: target, framing: .length(0),
                                                               acceptsCompression: false).bytes, as: UTF8.self)
        XCTAssertTrue(head.hasPrefix("GET /a/b?c=d HTTP/1.1\r\n"), head)
        XCTAssertFalse(head.contains("Proxy-Authorization"), head)
        XCTAssertNotEqual(target.key, try self.target("http://api.test:8080/", .http(proxy)).key, "never shared with forwarding")
        XCTAssertNotEqual(target.key, try SocketRequestTarget.read(URL(string: "http://other.test:8080/")!, proxy: .http(proxy),
                                                                   tunnelsPlainHTTP: true).get().key, "one tunnel per origin")
        let direct = try SocketRequestTarget.read(URL(string: "http://api.test:8080/")!, proxy: .none, tunnelsPlainHTTP: true).get()
        XCTAssertFalse(direct.key.tunnels, "no proxy, nothing to tunnel through")
        XCTAssertEqual(direct.key.connectHost, "api.test")
    }

    func testEveryRequestThroughSOCKS5TunnelsInOriginFormWithoutAHeaderForTheCredentials() throws {
        let socks = try XCTUnwrap(ProxyEndpoint("socks5h://user:secret@proxy.test:1080"))
        let plain = try target("http://api.test:8080/a?b", .http(socks))
        XCTAssertEqual(plain.key, ConnectionPoolKey(host: "api.test", port: 8080, proxy: socks))
        XCTAssertTrue(plain.key.tunnels, "plain http tunnels too: a SOCKS proxy forwards no HTTP")
        XCTAssertEqual(plain.key.connectHost, "proxy.test")
        XCTAssertEqual(plain.key.connectPort, 1080)
        XCTAssertEqual(plain.requestTarget, "/a?b")
        XCTAssertNil(plain.proxyAuthorization)
        let head = String(decoding: SocketRequestEncoding.head(HTTPClientRequest(url: plain.url), target: plain, framing: .length(0),
                                                               acceptsCompression: false).bytes, as: UTF8.self)
        XCTAssertTrue(head.hasPrefix("GET /a?b HTTP/1.1\r\n"), head)
        XCTAssertFalse(head.contains("roxy-"), head)
        let secure = try target("https://api.test/x", .http(socks))
        XCTAssertEqual(secure.key, ConnectionPoolKey(secure: true, host: "api.test", port: 443, proxy: socks))
        XCTAssertTrue(secure.key.tunnels)
        XCTAssertNotEqual(plain.key, try target("http://other.test:8080/", .http(socks)).key, "one tunnel per origin")
    }

    func testTheEnvironmentDecidesPerRequest() throws {
        let setting = HTTPClient.Configuration.Proxy.environment(ProxyEnvironment([
            "http_proxy": "proxy.test:3128", "no_proxy": ".internal.test,10.0.0.0/8",
        ]))
        XCTAssertEqual(try target("http://api.test/", setting).key.proxy, ProxyEndpoint("proxy.test:3128"))
        XCTAssertNil(try target("http://db.internal.test/", setting).key.proxy)
        XCTAssertNil(try target("http://10.1.2.3/", setting).key.proxy)
        XCTAssertNil(try target("https://api.test/", setting).key.proxy, "no https_proxy, no all_proxy")
        XCTAssertNil(try target("http://api.test/", .none).key.proxy)
    }

    func testTheDefaultConfigurationReadsTheProcessEnvironment() {
        XCTAssertEqual(HTTPClient.Configuration().proxy, .environment(ProxyEnvironment(ProcessInfo.processInfo.environment)))
    }
}
