import Foundation
import HTTPWire
@testable import HTTPClient
import TestSupport
import XCTest

/// The proxy variables as curl's man page (`--proxy`, `--noproxy`, ENVIRONMENT) and its URL
/// parsing read them: credentials decoded once, `socks://`, `*` inside a list, and hosts that
/// spell an IPv4 address another way than a dotted quad; and `CONNECT` on the wire as curl sends
/// it and RFC 9110 section 9.3.6 ends its answer, against a scripted proxy.
final class ProxyCurlRulesTests: HTTPClientTestCase {
    private var proxies: [ScriptedHTTPServer] = []

    override func tearDown() {
        proxies.forEach { $0.stop() }
        proxies = []
        super.tearDown()
    }

    /// A scripted HTTP proxy answering each connection's `CONNECT` with `answer`, then the
    /// request inside the tunnel with a 200 whose body is `ok`; and a client through it (as
    /// `proxyURL` names it, `PORT` its port) that tunnels plain `http` too.
    private func tunnel(answer: String, proxyURL: String = "http://127.0.0.1:PORT") throws -> ScriptedHTTPServer {
        let proxy = try ScriptedHTTPServer { _, request, _ in
            request == 1 ? .respond(Array(answer.utf8)) : .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
        }
        proxies.append(proxy)
        let endpoint = try XCTUnwrap(ProxyEndpoint(proxyURL.replacingOccurrences(of: "PORT", with: "\(proxy.port)")))
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), proxy: .http(endpoint),
                                                 tunnelsPlainHTTPThroughProxy: true))
        return proxy
    }

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

    /// `CONNECT host:port HTTP/1.1` with `Host` the same (an IPv6 origin in brackets), and
    /// `Proxy-Authorization: Basic` of the proxy URL's credentials decoded once, as curl sends it.
    func testTheCONNECTNamesTheOriginInAuthorityFormWithTheDecodedCredentials() throws {
        let proxy = try tunnel(answer: "HTTP/1.1 200 Connection established\r\n\r\n", proxyURL: "http://u%2541:p%3Aw@127.0.0.1:PORT")
        for origin in ["http://origin.test:8080/a?b", "http://[2001:db8::1]:81/c"] {
            let response = try executeWithCompletion(HTTPClientRequest(url: try XCTUnwrap(URL(string: origin)))).get()
            XCTAssertEqual(response.body, Array("ok".utf8))
        }
        let heads = proxy.requests.map(\.head)
        XCTAssertEqual(heads.map { "\($0.method) \($0.target)" },
                       ["CONNECT origin.test:8080", "GET /a?b", "CONNECT [2001:db8::1]:81", "GET /c"])
        XCTAssertEqual(heads.map { $0.headers["Host"] }, ["origin.test:8080", "origin.test:8080", "[2001:db8::1]:81", "[2001:db8::1]:81"])
        XCTAssertEqual(heads[0].headers["Proxy-Authorization"], "Basic " + Data("u%41:p:w".utf8).base64EncodedString())
        XCTAssertNil(heads[1].headers["Proxy-Authorization"], "the credentials go with the CONNECT only")
    }

    /// RFC 9110 section 9.3.6: a client ignores `Content-Length` and `Transfer-Encoding` in a 2xx
    /// answer to `CONNECT`; the tunnel starts right after its head.
    func testA2xxToCONNECTEndsAtItsHeadWhateverItsFramingSays() throws {
        for framing in ["Content-Length: 5", "Transfer-Encoding: chunked", "Content-Length: 0"] {
            let proxy = try tunnel(answer: "HTTP/1.1 200 Connection established\r\n\(framing)\r\n\r\n")
            let response = try executeWithCompletion(HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://origin.test/x")))).get()
            XCTAssertEqual(response.body, Array("ok".utf8), framing)
            XCTAssertEqual(proxy.requests.map(\.head.target), ["origin.test:80", "/x"], framing)
        }
    }

    /// A 407 with `Proxy-Authenticate` from a proxy that then closes is the typed refusal, naming
    /// the proxy, and nothing is sent after it.
    func testA407FromAProxyThatClosesIsATypedRefusal() throws {
        let proxy = try ScriptedHTTPServer { _, _, _ in
            .respondAndClose(Array("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"p\"\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        proxies.append(proxy)
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5),
                                                 proxy: .http(try XCTUnwrap(ProxyEndpoint("127.0.0.1:\(proxy.port)")))))
        let result = try executeWithCompletion(HTTPClientRequest(url: try XCTUnwrap(URL(string: "https://origin.test/"))))
        guard case .failure(.proxyRefused(407, "127.0.0.1", let port)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(port, Int(proxy.port))
        XCTAssertEqual(proxy.requests.map(\.head.target), ["origin.test:443"])
    }
}
