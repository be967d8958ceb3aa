import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// The proxy variables as curl's man page (`--proxy`, `--noproxy`, ENVIRONMENT) and its URL
/// parsing read them, where the client read them otherwise: credentials decoded once, `socks://`,
/// `*` inside a list, and hosts that spell an IPv4 address another way than a dotted quad.
final class ProxyCurlRulesTests: LeakCheckingTestCase {
    /// The way a plain `http` request to `host` on port 80 goes with `no_proxy` set so, a proxy
    /// being set for it.
    private func route(_ host: String, noProxy: String) -> ProxyEnvironment.Setting {
        ProxyEnvironment(["http_proxy": "http://p:1", "no_proxy": noProxy]).route(secure: false, host: host, port: 80)
    }

    /// curl takes the user and password of a proxy URL decoded once (`CURLU_URLDECODE`): a
    /// password holding `%41` literally is written `%2541` and must reach the proxy as `%41`.
    func testCredentialsAreDecodedOnceAsCurlDecodesThem() throws {
        let proxy = try XCTUnwrap(ProxyEndpoint("http://u%2541:p%2542%3A@proxy:3128"))
        XCTAssertEqual(proxy.credentials?.user, "u%41")
        XCTAssertEqual(proxy.credentials?.password, "p%42:")
        XCTAssertEqual(proxy.authorization, "Basic " + Data("u%41:p%42:".utf8).base64EncodedString())
        let socks = try XCTUnwrap(ProxyEndpoint("socks5://u%25:100%25@proxy"))
        XCTAssertEqual(socks.credentials?.user, "u%", "what RFC 1929's message carries")
        XCTAssertEqual(socks.credentials?.password, "100%")
    }

    /// curl reads a `socks://` proxy as SOCKS4 (`parse_proxy`: "socks4" or "socks"), so a
    /// variable naming one is a proxy to use, not one to refuse.
    func testASOCKSSchemeIsSOCKS4AsCurlReadsIt() throws {
        let proxy = try XCTUnwrap(ProxyEndpoint("SOCKS://alice@proxy"))
        XCTAssertEqual(proxy.kind, .socks4)
        XCTAssertEqual(proxy.port, 1080)
        XCTAssertEqual(proxy.credentials?.user, "alice", "the user ID")
        XCTAssertEqual(ProxyEnvironment(["all_proxy": "socks://127.0.0.1:1081"]).route(secure: true, host: "h", port: 443),
                       .proxy(try XCTUnwrap(ProxyEndpoint("socks4://127.0.0.1:1081"))))
    }
}
