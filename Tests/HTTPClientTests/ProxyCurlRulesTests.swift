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

    /// curl's `--noproxy` and NO_PROXY: "If set to an asterisk '*' only, it matches all hosts";
    /// in a list, `*` names no host (curl's `Curl_check_noproxy` compares it as a name).
    func testAStarIsTheWildcardOnlyAsTheWholeValue() {
        XCTAssertEqual(route("api.example.com", noProxy: "*"), .unset)
        XCTAssertEqual(route("api.example.com", noProxy: " * "), .unset, "blanks around it aside")
        XCTAssertNotEqual(route("api.example.com", noProxy: "*,internal.test"), .unset, "not inside a list")
        XCTAssertNotEqual(route("api.example.com", noProxy: "internal.test, *"), .unset)
        XCTAssertEqual(route("db.internal.test", noProxy: "*,internal.test"), .unset, "the list's other entries still count")
    }

    /// curl normalizes a URL's IPv4 host as `inet_aton` reads it (and `getaddrinfo` connects to it
    /// so) before `no_proxy` sees it, and compares an address with addresses and ranges only.
    func testAHostIsComparedAsTheAddressItConnectsTo() {
        XCTAssertEqual(route("127.1", noProxy: "127.0.0.1"), .unset, "127.1 is 127.0.0.1")
        XCTAssertEqual(route("0x7f.0.0.1", noProxy: "127.0.0.0/8"), .unset, "hex")
        XCTAssertEqual(route("2130706433", noProxy: "127.0.0.1"), .unset, "one number")
        XCTAssertNotEqual(route("010.1.2.3", noProxy: "10.0.0.0/8"), .unset, "a leading 0 is octal: 8.1.2.3")
        XCTAssertEqual(route("010.1.2.3", noProxy: "8.1.2.3"), .unset)
        XCTAssertNotEqual(route("10.1.2.3", noProxy: "1.2.3"), .unset, "a name never covers an address")
        XCTAssertNotEqual(route("127.0.0.1", noProxy: "0.1"), .unset)
        XCTAssertEqual(route("10.1.2.3", noProxy: "1.2.3,10.1.2.3"), .unset)
        XCTAssertEqual(route("1.2.3.example", noProxy: "example"), .unset, "a name starting with digits is still a name")
        XCTAssertEqual(route("fd12::1", noProxy: "fd00::/8"), .unset)
    }
}
