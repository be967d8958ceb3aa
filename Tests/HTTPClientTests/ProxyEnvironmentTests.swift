import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// The proxy environment as curl reads it, a pure decision: which variables count, `no_proxy`'s
/// host suffixes, `*`, addresses, CIDR ranges and ports, and proxy URLs with credentials.
final class ProxyEnvironmentTests: LeakCheckingTestCase {
    /// The URL `text` names (every one here is valid; a typo fails the test's assertions).
    private func link(_ text: String) -> URL {
        URL(string: text) ?? URL(fileURLWithPath: "/invalid")
    }

    private var http: URL { link("http://api.example.com/feed") }
    private var https: URL { link("https://api.example.com/feed") }

    func testTheVariablesCurlReads() {
        let lower = ProxyEnvironment(["http_proxy": "http://p1:3128", "https_proxy": "p2:3129"])
        XCTAssertEqual(lower.proxy(for: http)?.description, "http://p1:3128")
        XCTAssertEqual(lower.proxy(for: https)?.description, "http://p2:3129", "no scheme reads as http://")
        XCTAssertNil(ProxyEnvironment(["HTTP_PROXY": "http://p1:3128"]).proxy(for: http), "upper-case HTTP_PROXY is ignored (httpoxy)")
        XCTAssertEqual(ProxyEnvironment(["HTTPS_PROXY": "http://p2:8080"]).proxy(for: https)?.port, 8080)
        XCTAssertEqual(ProxyEnvironment(["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"]).proxy(for: https)?.host, "lower")
        let all = ProxyEnvironment(["ALL_PROXY": "http://every:9"])
        XCTAssertEqual(all.proxy(for: http)?.host, "every")
        XCTAssertEqual(all.proxy(for: https)?.host, "every")
        XCTAssertEqual(ProxyEnvironment(["all_proxy": "http://all:1", "http_proxy": "http://own:2"]).proxy(for: http)?.host, "own")
        XCTAssertNil(ProxyEnvironment([:]).proxy(for: http))
        XCTAssertNil(ProxyEnvironment(["http_proxy": "   "]).proxy(for: http), "an empty value is unset")
        XCTAssertEqual(ProxyEnvironment(["http_proxy": "socks5://s:1080"]).proxy(for: http)?.kind, .socks5, "SOCKS5 in any variable")
        XCTAssertEqual(ProxyEnvironment(["all_proxy": "SOCKS5H://s"]).proxy(for: https)?.kind, .socks5h)
        XCTAssertEqual(ProxyEnvironment(["http_proxy": "socks4://s:1080"]).proxy(for: http)?.kind, .socks4, "SOCKS4 too")
        XCTAssertNil(ProxyEnvironment(["all_proxy": "socks4a://s:1080"]).proxy(for: http), "SOCKS4a is not supported: no proxy to use")
        XCTAssertEqual(ProxyEnvironment(["http_proxy": "proxy.local"]).proxy(for: http)?.port, 1080, "curl's default proxy port")
    }

    func testCredentialsAreDecodedAndMaskedInTheDescription() throws {
        let proxy = try XCTUnwrap(ProxyEndpoint("http://us%40er:p%3Ass@proxy:3128"))
        XCTAssertEqual(proxy.credentials?.user, "us@er")
        XCTAssertEqual(proxy.credentials?.password, "p:ss")
        XCTAssertEqual(proxy.authorization, "Basic " + Data("us@er:p:ss".utf8).base64EncodedString())
        XCTAssertEqual(proxy.description, "http://us@er:***@proxy:3128")
        XCTAssertNil(try XCTUnwrap(ProxyEndpoint("http://[::1]:3128")).authorization)
        XCTAssertEqual(try XCTUnwrap(ProxyEndpoint("http://[::1]:3128")).host, "::1")
        XCTAssertNil(ProxyEndpoint("proxy:70000"), "no such port")
        XCTAssertNil(ProxyEndpoint("proxy:0"))
        let secure = try XCTUnwrap(ProxyEndpoint("https://us%40er:p%3Ass@proxy"))
        XCTAssertEqual(secure.kind, .https, "an HTTPS proxy")
        XCTAssertEqual(secure.port, 443, "curl's default for an HTTPS proxy")
        XCTAssertEqual(secure.authorization, "Basic " + Data("us@er:p:ss".utf8).base64EncodedString(), "credentials as for http://")
        XCTAssertEqual(ProxyEnvironment(["https_proxy": "HTTPS://p:8443"]).proxy(for: https)?.kind, .https)
        XCTAssertNil(ProxyEndpoint("socks4a://proxy"), "nor SOCKS4a")
        let socks4 = try XCTUnwrap(ProxyEndpoint("socks4://alice@proxy"))
        XCTAssertEqual(socks4.credentials?.user, "alice", "the user ID")
        XCTAssertNil(socks4.authorization, "SOCKS4's user goes in its request, not in a header")
        XCTAssertEqual(socks4.description, "socks4://alice:***@proxy:1080")
    }

    func testSOCKS5ProxiesAsCurlNamesThem() throws {
        let local = try XCTUnwrap(ProxyEndpoint("socks5://proxy"))
        XCTAssertEqual(local.kind, .socks5, "resolved here")
        XCTAssertEqual(local.port, 1080, "curl's default")
        let remote = try XCTUnwrap(ProxyEndpoint("socks5h://us%40er:p%3Ass@[::1]:9050"))
        XCTAssertEqual(remote.kind, .socks5h, "resolved by the proxy")
        XCTAssertEqual(remote.host, "::1")
        XCTAssertEqual(remote.credentials?.user, "us@er")
        XCTAssertEqual(remote.credentials?.password, "p:ss")
        XCTAssertNil(remote.authorization, "SOCKS5 credentials go in its own negotiation, never in a header")
        XCTAssertEqual(remote.description, "socks5h://us@er:***@[::1]:9050")
        XCTAssertNotEqual(ProxyEndpoint("socks5://p:1080"), ProxyEndpoint("http://p:1080"), "the kind counts")
        XCTAssertNotEqual(ProxyEndpoint("socks5://p:1080"), ProxyEndpoint("socks5h://p:1080"))
    }

    private func bypassed(_ noProxy: String, _ url: String) -> Bool {
        ProxyEnvironment(["http_proxy": "http://p:1", "https_proxy": "http://p:1", "no_proxy": noProxy]).proxy(for: link(url)) == nil
    }

    func testNoProxyHostSuffixesStarAndPorts() {
        XCTAssertTrue(bypassed("example.com", "http://example.com/"))
        XCTAssertTrue(bypassed("example.com", "http://api.example.com/"))
        XCTAssertTrue(bypassed(".example.com", "http://api.example.com/"))
        XCTAssertTrue(bypassed(".example.com", "http://example.com/"), "curl strips the leading dot")
        XCTAssertFalse(bypassed("example.com", "http://badexample.com/"))
        XCTAssertTrue(bypassed("other.org, Example.COM", "https://API.example.com/"), "a list, without case")
        XCTAssertTrue(bypassed("*", "http://anything.test/"))
        XCTAssertFalse(bypassed("*.example.com", "http://example.org/"))
        XCTAssertTrue(bypassed("example.com:8080", "http://example.com:8080/"))
        XCTAssertFalse(bypassed("example.com:8080", "http://example.com/"))
        XCTAssertTrue(bypassed("example.com:443", "https://example.com/"), "the scheme's default port")
        XCTAssertFalse(ProxyEnvironment(["http_proxy": "http://p:1", "NO_PROXY": "other.org"]).proxy(for: http) == nil)
        XCTAssertTrue(ProxyEnvironment(["http_proxy": "http://p:1", "NO_PROXY": "example.com"]).proxy(for: http) == nil, "NO_PROXY read too")
    }

    func testNoProxyAddressesAndRanges() {
        XCTAssertTrue(bypassed("127.0.0.1", "http://127.0.0.1:8080/"))
        XCTAssertFalse(bypassed("127.0.0.1", "http://127.0.0.2/"))
        XCTAssertTrue(bypassed("10.0.0.0/8", "http://10.200.3.4/"))
        XCTAssertFalse(bypassed("10.0.0.0/8", "http://11.0.0.1/"))
        XCTAssertTrue(bypassed("192.168.1.0/24", "http://192.168.1.77/"))
        XCTAssertFalse(bypassed("192.168.1.0/24", "http://192.168.2.1/"))
        XCTAssertTrue(bypassed("172.16.0.0/12", "http://172.31.255.255/"))
        XCTAssertFalse(bypassed("172.16.0.0/12", "http://172.32.0.1/"))
        XCTAssertTrue(bypassed("::1", "http://[::1]:8080/"))
        XCTAssertTrue(bypassed("fd00::/8", "http://[fd12:3456::1]/"))
        XCTAssertFalse(bypassed("fd00::/8", "http://[fe80::1]/"))
        XCTAssertTrue(bypassed("[::1]:8080", "http://[::1]:8080/"))
        XCTAssertFalse(bypassed("10.0.0.0/8", "http://ten.example/"), "a range never matches a name")
        XCTAssertFalse(bypassed("10.0.0.0/33", "http://10.0.0.1/"), "an impossible prefix is skipped")
        XCTAssertFalse(bypassed("10.0.0.0/8", "http://010.1.2.3/"), "a leading 0 is octal, as getaddrinfo reads it: 8.1.2.3")
        XCTAssertFalse(bypassed("10.0.0.0/8", "http://10.256.0.1/"), "not an address: a part over 255")
        XCTAssertTrue(bypassed("10.0.0.0/8", "http://10.1.2/"), "three parts, as getaddrinfo reads them: 10.1.0.2")
        XCTAssertFalse(bypassed("10.0.0.0/8", "http://10.1.2.3.4/"), "not an address: five parts")
        XCTAssertTrue(bypassed("fd00::/8", "http://[FD12::1]/"), "upper-case hex")
        XCTAssertFalse(bypassed("::/0", "http://fade.cafe/"), "hex letters and dots are still a name")
    }

    func testNoProxyNamesByTheirLastLabels() {
        XCTAssertTrue(bypassed("example.com.", "http://api.example.com/"), "a rule's trailing dot")
        XCTAssertTrue(bypassed("example.com", "http://api.example.com./"), "a host's trailing dot")
        XCTAssertTrue(bypassed("localhost", "http://LOCALHOST:8080/"))
        XCTAssertFalse(bypassed("localhost", "http://xlocalhost/"))
        XCTAssertFalse(bypassed("localhost", "http://localhostx/"))
        XCTAssertFalse(bypassed("a.example.com", "http://example.com/"), "a longer rule than the host")
        XCTAssertTrue(bypassed("localhost,.internal.test,10.0.0.0/8,example.org:8080,127.0.0.1", "http://db.Internal.test/"))
        XCTAssertFalse(bypassed("localhost,.internal.test,10.0.0.0/8,example.org:8080,127.0.0.1", "http://example.org/"))
    }

    func testAValueNamingNoUsableProxyRefusesItsSchemeInsteadOfGoingDirect() {
        let environment = ProxyEnvironment(["https_proxy": "socks4a://u:p@x:1080", "http_proxy": "ftp://x", "no_proxy": ".internal"])
        XCTAssertEqual(environment.route(secure: true, host: "api.example.com", port: 443), .unusable("socks4a://u:***@x:1080"))
        XCTAssertEqual(environment.route(secure: false, host: "api.example.com", port: 80), .unusable("ftp://x"))
        XCTAssertEqual(environment.route(secure: true, host: "a.internal", port: 443), .unset, "no_proxy comes first, as in curl")
        XCTAssertNil(environment.https, "no proxy to use")
        XCTAssertEqual(ProxyEnvironment(["http_proxy": "proxy:0"]).route(secure: false, host: "h", port: 80), .unusable("proxy:0"))
        XCTAssertEqual(ProxyEnvironment(["http_proxy": "http://"]).route(secure: false, host: "h", port: 80), .unusable("http://"))
        XCTAssertEqual(ProxyEnvironment(["all_proxy": "socks4a://s"]).route(secure: true, host: "h", port: 443), .unusable("socks4a://s"))
        XCTAssertEqual(ProxyEnvironment(["http_proxy": "http://p:1"]).route(secure: true, host: "h", port: 443), .unset,
                       "a scheme without a variable goes direct")
    }

    func testAnUnusableValuesPasswordIsMasked() {
        XCTAssertEqual(ProxyEnvironment.masked("https://user:secret@proxy:443"), "https://user:***@proxy:443")
        XCTAssertEqual(ProxyEnvironment.masked("user:secret@proxy"), "user:***@proxy", "without a scheme")
        XCTAssertEqual(ProxyEnvironment.masked("https://us:er:pa@ss@proxy"), "https://us:***@proxy", "up to the last @ of the authority")
        XCTAssertEqual(ProxyEnvironment.masked("https://user@proxy"), "https://user@proxy", "no password")
        XCTAssertEqual(ProxyEnvironment.masked("https://proxy/a:b@c"), "https://proxy/a:b@c", "an @ after the authority is no user info")
    }
}
