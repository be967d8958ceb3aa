import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Networking
import TestSupport
import XCTest

/// RFC 6265's rules one by one (§5.1.1 dates, §5.1.3 domains, §5.1.4 paths, §5.2 parsing, §5.3
/// storage, §5.4 the `Cookie` field): parsing and matching directly, the rest on the wire
/// through `SocketTransport` against a scripted server that echoes the `Cookie` field it got.
final class CookieRFC6265Tests: LeakCheckingTestCase {
    private let url = URL(fixed: "http://a.example.com/shop/cart")
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func parse(_ field: String, from url: URL? = nil) -> SetCookie? {
        SetCookie(field, from: url ?? self.url, now: now)
    }

    // MARK: §5.2 parsing

    func testTheNameValuePairIsTrimmedAndAQuotedValueKeepsItsQuotes() throws {
        XCTAssertNil(parse("lonely; Path=/"), "no '=' in the pair")
        let cookie = try XCTUnwrap(parse(" \tq = \"a b\" \t; Path=/"))
        XCTAssertEqual(cookie.name, "q")
        XCTAssertEqual(cookie.value, "\"a b\"")
        XCTAssertEqual(try XCTUnwrap(parse("e=")).value, "", "an empty value is a value")
    }

    func testAttributeNamesIgnoreCase() throws {
        let cookie = try XCTUnwrap(parse("a=1; pATH=/x; DOMAIN=example.com; sEcUrE; HTTPONLY; MAX-AGE=5"))
        XCTAssertEqual(cookie.path, "/x")
        XCTAssertEqual(cookie.domain, "example.com")
        XCTAssertTrue(cookie.secure)
        XCTAssertTrue(cookie.httpOnly)
        XCTAssertEqual(cookie.expires, now.addingTimeInterval(5))
    }

    func testTheLastOfARepeatedAttributeWins() throws {
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Path=/x; Path=/y")).path, "/y")
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Path=/x; Path=relative")).path, "/shop", "the last one, made the default")
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Domain=other.org; Domain=example.com")).domain, "example.com")
        XCTAssertNil(parse("a=1; Domain=example.com; Domain=other.org"), "the last Domain does not cover the host")
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Max-Age=5; Max-Age=60")).expires, now.addingTimeInterval(60))
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:01 GMT")).expires,
                       now.addingTimeInterval(60), "Max-Age wins wherever it is")
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Expires=Thu, 01 Jan 2037 00:00:00 GMT")).expires,
                       Date(timeIntervalSince1970: 2_114_380_800))
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Expires=Thu, 01 Jan 2037 00:00:00 GMT; Expires=never")).expires,
                       Date(timeIntervalSince1970: 2_114_380_800), "an unparseable one is ignored, not a reset")
    }

    func testMaxAgeIsDigitsWithAnOptionalMinusOrIgnored() throws {
        for text in ["+5", "5s", " ", "1e3", "0x10", "5.0"] {
            XCTAssertNil(try XCTUnwrap(parse("a=1; Max-Age=\(text)")).expires, text)
        }
        // Digits of other scripts are numbers to Swift, but not RFC 6265's DIGIT (%x30-39).
        for text in ["\u{0661}\u{0660}", "\u{FF15}", "\u{00BD}", "-\u{0661}"] {
            XCTAssertNil(try XCTUnwrap(parse("a=1; Max-Age=\(text)")).expires, text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Max-Age=0")).expires, .distantPast)
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Max-Age=-1")).expires, .distantPast)
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Max-Age=007")).expires, now.addingTimeInterval(7))
    }

    func testExpiresInEveryCommonFormAndAnUnparseableOneMakesASessionCookie() throws {
        let cases: [(String, TimeInterval)] = [
            ("Thu, 01 Jan 1970 00:00:01 GMT", 1),
            ("Thu, 01-Jan-1970 00:00:01 GMT", 1),
            ("Thu, 01-Jan-70 00:00:01 GMT", 1),
            ("Thursday, 01-Jan-70 00:00:01 GMT", 1),
            ("Wed, 21-Oct-37 07:28:00 GMT", 2_139_722_880),
            ("Sat, 01 Jan 2000 00:00:00 GMT", 946_684_800),
            ("Sat, 01-Jan-00 00:00:00 GMT", 946_684_800),
            ("Thu Jan  1 00:00:01 1970", 1),
            ("Wed Oct 21 07:28:00 2037", 2_139_722_880),
            ("21 oct 2037 7:28:0", 2_139_722_880),
            ("Wed, 21st Oct 2037 07:28:00GMT", 2_139_722_880),
        ]
        for (text, seconds) in cases {
            XCTAssertEqual(try XCTUnwrap(parse("a=1; Expires=\(text)")).expires, Date(timeIntervalSince1970: seconds), text)
        }
        for text in ["", "never", "Wed, 21 Oct 2037", "Wed, 21 Oct 2037 25:00:00 GMT", "Wed, 21 Foo 2037 07:28:00 GMT",
                     "Wed, 21 Oct 1600 07:28:00 GMT", "Sat, 31 Feb 2037 07:28:00 GMT", "Sun, 29 Feb 2037 07:28:00 GMT",
                     "Fri, 31 Apr 2037 07:28:00 GMT"] {
            XCTAssertNil(try XCTUnwrap(parse("a=1; Expires=\(text)")).expires, "\(text): ignored, a session cookie")
        }
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Expires=Thu, 29 Feb 2024 12:00:00 GMT")).expires,
                       Date(timeIntervalSince1970: 1_709_208_000), "a leap day")
    }

    /// A server's long run of digits is a token like any other: read without overflowing.
    func testALongRunOfDigitsInADateIsNotADateAndDoesNotOverflow() throws {
        let digits = String(repeating: "9", count: 40)
        for text in [digits, "\(digits):00:00", "12:\(digits):00", "12:00:\(digits)", "01 Jan 1970 12:00:\(digits)"] {
            XCTAssertNil(try XCTUnwrap(parse("a=1; Expires=\(text)")).expires, text)
        }
        for text in ["Thu, 01 Jan \(digits) 1970 00:00:01 GMT", "Thu, 01 Jan 1970 00:00:01 \(digits) GMT"] {
            XCTAssertEqual(try XCTUnwrap(parse("a=1; Expires=\(text)")).expires, Date(timeIntervalSince1970: 1), "a token that is nothing: skipped")
        }
    }

    func testTheDomainAttribute() throws {
        for text in ["example.com", ".example.com", "EXAMPLE.Com", ".Example.COM"] {
            let cookie = try XCTUnwrap(parse("a=1; Domain=\(text)"), text)
            XCTAssertEqual(cookie.domain, "example.com", text)
            XCTAssertFalse(cookie.hostOnly, text)
        }
        XCTAssertNil(parse("a=1; Domain=example.com."), "a trailing dot does not domain-match the host")
        let itself = try XCTUnwrap(parse("a=1; Domain=A.example.com"))
        XCTAssertEqual(itself.domain, "a.example.com")
        XCTAssertFalse(itself.hostOnly, "the host itself, named: subdomains get it too")
        XCTAssertTrue(try XCTUnwrap(parse("a=1; Domain=")).hostOnly, "an empty Domain is ignored")
        XCTAssertNil(parse("a=1; Domain=com"), "a top-level name")
        XCTAssertNil(parse("a=1; Domain=.com"), "a top-level name")
        let rooted = URL(fixed: "http://a.example.com./")
        XCTAssertNil(parse("a=1; Domain=com.", from: rooted), "a top-level name, written with its root dot")
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Domain=example.com.", from: rooted)).domain, "example.com.")
        XCTAssertNil(parse("a=1; Domain=xample.com"), "a suffix, not a domain")
        let address = URL(fixed: "http://10.0.0.1/")
        XCTAssertNil(parse("a=1; Domain=0.0.1", from: address))
        XCTAssertNil(parse("a=1; Domain=0.1", from: address))
        XCTAssertEqual(try XCTUnwrap(parse("a=1; Domain=10.0.0.1", from: address)).domain, "10.0.0.1", "identical")
    }

    // MARK: §5.3 storage

    func testStorageReplacesBySameNameDomainPathAndHostOnlyAndAnExpiredOneDeletes() throws {
        let storage = SessionTestSupport.storage()
        let jar = CookieJar(storage: storage, acceptPolicy: .always, setsCookies: true)
        let now = Date()
        let page = URL(fixed: "http://a.example.com/")
        jar.store(["a=1; Path=/"], from: page, mainDocumentURL: nil, now: now)
        jar.store(["a=2; Path=/"], from: page, mainDocumentURL: nil, now: now)
        jar.store(["a=3; Path=/; Domain=example.com"], from: page, mainDocumentURL: nil, now: now)
        jar.store(["a=4; Path=/x"], from: page, mainDocumentURL: nil, now: now)
        XCTAssertEqual(storage.cookies?.count, 3)
        let sent = try XCTUnwrap(jar.cookieHeader(for: URL(fixed: "http://a.example.com/x"), now: now))
        XCTAssertTrue(sent.hasPrefix("a=4; "), "the longer path first: \(sent)")
        XCTAssertEqual(Set(sent.components(separatedBy: "; ")), ["a=4", "a=2", "a=3"])
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://b.a.example.com/x"), now: now), "a=3", "host-only stays on its host")
        jar.store(["a=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:01 GMT"], from: page, mainDocumentURL: nil, now: now)
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://a.example.com/x"), now: now), "a=4; a=3")
        jar.store(["a=gone; Path=/x; Max-Age=0"], from: page, mainDocumentURL: nil, now: now)
        jar.store(["a=gone; Path=/; Domain=.EXAMPLE.com; Max-Age=-1"], from: page, mainDocumentURL: nil, now: now)
        XCTAssertEqual(storage.cookies?.count, 0)
    }

    func testTheDefaultPathIsTheRequestsDirectory() {
        let cases = [("http://h/", "/"), ("http://h", "/"), ("http://h/a", "/"), ("http://h/a/", "/a"), ("http://h/a/b?c=/d/e", "/a"),
                     ("http://h/a/b/c", "/a/b")]
        for (text, path) in cases {
            XCTAssertEqual(parse("x=1", from: URL(fixed: text))?.path, path, text)
            XCTAssertEqual(parse("x=1; Path=", from: URL(fixed: text))?.path, path, text)
            XCTAssertEqual(parse("x=1; Path=b", from: URL(fixed: text))?.path, path, text)
        }
    }

    // MARK: §5.4 sending

    func testPathMatching() {
        for (request, cookie, matches) in [("/a", "/a", true), ("/a/", "/a", true), ("/a/b", "/a", true), ("/ab", "/a", false),
                                           ("/a", "/a/", false), ("/a/b", "/a/", true), ("/", "/", true), ("/anything", "/", true),
                                           ("/A", "/a", false)] {
            XCTAssertEqual(CookieMatching.pathMatches(requestPath: request, cookiePath: cookie), matches, "\(request) for \(cookie)")
        }
    }

    func testHostsInEveryForm() throws {
        let storage = SessionTestSupport.storage()
        let jar = CookieJar(storage: storage, acceptPolicy: .always, setsCookies: true)
        let now = Date()
        jar.store(["up=1; Path=/"], from: URL(fixed: "http://WWW.Example.COM/"), mainDocumentURL: nil, now: now)
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://www.example.com/"), now: now), "up=1")
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://WWW.EXAMPLE.com/"), now: now), "up=1")
        jar.store(["v6=1; Path=/"], from: URL(fixed: "http://[::1]:8080/"), mainDocumentURL: nil, now: now)
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://[::1]:9090/x"), now: now), "v6=1")
        XCTAssertNil(jar.cookieHeader(for: URL(fixed: "http://[::2]/"), now: now))
        jar.store(["v6d=1; Path=/; Domain=::1"], from: URL(fixed: "http://[::1]/"), mainDocumentURL: nil, now: now)
        XCTAssertNil(jar.cookieHeader(for: URL(fixed: "http://[1::1]/"), now: now), "no suffix match on an address")
        jar.store(["local=1; Path=/"], from: URL(fixed: "http://localhost:1/"), mainDocumentURL: nil, now: now)
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://localhost:2/"), now: now), "local=1")
        XCTAssertNil(jar.cookieHeader(for: URL(fixed: "http://a.localhost/"), now: now), "host-only")
        jar.store(["dot=1; Path=/"], from: URL(fixed: "http://example.org./"), mainDocumentURL: nil, now: now)
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://example.org./"), now: now), "dot=1")
        XCTAssertNil(jar.cookieHeader(for: URL(fixed: "http://example.org/"), now: now), "another host name")
    }
}

/// RFC 6265 on the wire: what `SocketTransport` sends and stores against a scripted server whose
/// default answer echoes the `Cookie` field it received as its body.
final class CookieRFC6265WireTests: LeakCheckingTestCase {
    private var server: ScriptedHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try ScriptedHTTPServer { _, _, head in
            let port = head.headers["Host"]?.split(separator: ":").last.map(String.init) ?? ""
            switch head.path {
            case "/many":
                return SessionTestSupport.answer(200, [("Set-Cookie", "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/"),
                                                      ("Set-Cookie", "b=2; Path=/"), ("Set-Cookie", "c=\"x y\"; Path=/"),
                                                      ("Set-Cookie", "e=; Path=/"), ("Set-Cookie", "z=9; Path=/echo")])
            case "/drop":
                return SessionTestSupport.answer(200, [("Set-Cookie", "b=gone; Path=/; Expires=Thu, 01-Jan-1970 00:00:01 GMT"),
                                                      ("Set-Cookie", "z=gone; Path=/echo; Max-Age=0")])
            case "/dir/set":
                return SessionTestSupport.answer(200, [("Set-Cookie", "d=1")])
            case "/a/hop":
                return SessionTestSupport.answer(302, [("Location", "/b/echo")])
            case "/cross":
                return SessionTestSupport.answer(302, [("Location", "http://localhost:\(port)/back"), ("Set-Cookie", "h=1; Path=/")])
            case "/back":
                return SessionTestSupport.answer(302, [("Location", "http://127.0.0.1:\(port)/echo"), ("Set-Cookie", "l=1; Path=/")])
            default:
                return SessionTestSupport.answer(200, body: head.headers["Cookie"] ?? "")
            }
        }
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func sent(_ request: URLRequest, through transport: any HTTPTransport,
                      file: StaticString = #filePath, line: UInt = #line) throws -> String {
        String(decoding: try SessionTestSupport.send(request, through: transport, file: file, line: line).data, as: UTF8.self)
    }

    private func request(_ path: String) -> URLRequest {
        URLRequest(url: server.url(path))
    }

    private func cookie(_ name: String, domain: String, path: String) throws -> HTTPCookie {
        try XCTUnwrap(HTTPCookie(properties: [.name: name, .value: "1", .domain: domain, .path: path]))
    }

    func testEverySetCookieOfAResponseIsStoredAndSentLongerPathsFirstAsNameEqualsValueSemicolonSpace() throws {
        let storage = SessionTestSupport.storage()
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        XCTAssertEqual(try sent(request("/many"), through: transport), "")
        XCTAssertEqual(try sent(request("/echo"), through: transport), "z=9; a=1; b=2; c=\"x y\"; e=",
                       "not folded at the comma of Expires; quotes kept; an empty value sent")
        XCTAssertEqual(try sent(request("/other"), through: transport), "a=1; b=2; c=\"x y\"; e=")
        _ = try sent(request("/drop"), through: transport)
        XCTAssertEqual(try sent(request("/echo"), through: transport), "a=1; c=\"x y\"; e=", "expired ones delete")
        XCTAssertEqual(Set(storage.cookies?.map(\.name) ?? []), ["a", "c", "e"])
    }

    func testTheDefaultPathIsTheDirectoryOfTheRequestPath() throws {
        let transport = SocketTransport(session: SessionOptions(cookieStorage: SessionTestSupport.storage(), cache: nil))
        _ = try sent(request("/dir/set"), through: transport)
        XCTAssertEqual(try sent(request("/dir/echo"), through: transport), "d=1")
        XCTAssertEqual(try sent(request("/dir"), through: transport), "d=1")
        XCTAssertEqual(try sent(request("/dirt"), through: transport), "")
        XCTAssertEqual(try sent(request("/echo"), through: transport), "")
    }

    func testARequestThatDoesNotHandleCookiesNeitherSendsNorStores() throws {
        let storage = SessionTestSupport.storage()
        storage.setCookie(try cookie("seed", domain: "127.0.0.1", path: "/"))
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        var quiet = request("/echo")
        quiet.httpShouldHandleCookies = false
        XCTAssertEqual(try sent(quiet, through: transport), "")
        quiet.url = server.url("/many")
        _ = try sent(quiet, through: transport)
        XCTAssertEqual(storage.cookies?.map(\.name), ["seed"])
        XCTAssertEqual(try sent(request("/echo"), through: transport), "seed=1", "the control")
    }

    func testTheAcceptPolicies() throws {
        for (policy, main, stored) in [(HTTPCookie.AcceptPolicy.always, "http://other.org/", 5), (.onlyFromMainDocumentDomain, "http://other.org/", 0),
                                       (.onlyFromMainDocumentDomain, "http://127.0.0.1/", 5), (.never, "http://127.0.0.1/", 0)] {
            let storage = SessionTestSupport.storage()
            let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cookieAcceptPolicy: policy, cache: nil))
            var many = request("/many")
            many.mainDocumentURL = URL(fixed: main)
            _ = try sent(many, through: transport)
            XCTAssertEqual(storage.cookies?.count, stored, "\(policy.rawValue) \(main)")
        }
    }

    /// The jar's cookies for one hop do not follow the redirect to a path they do not match
    /// (§5.4; URLSession on Linux sends them, as its storage matches no path at all).
    func testARedirectToAPathTheStoredCookiesDoNotMatchSendsNoneOfThem() throws {
        let storage = SessionTestSupport.storage()
        storage.setCookie(try cookie("x", domain: "127.0.0.1", path: "/a"))
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        XCTAssertEqual(try sent(request("/a/hop"), through: transport), "")
        XCTAssertEqual(server.requests.first { $0.head.path == "/a/hop" }?.head.headers["Cookie"], "x=1", "the first hop's")
        XCTAssertEqual(try sent(request("/a/echo"), through: transport), "x=1", "the control")
    }

    /// A caller's own `Cookie` field, with no stored cookie to replace it, follows a redirect to
    /// the same origin, through both transports alike.
    func testACallersOwnCookieFollowsASameOriginRedirectAsURLSessionSendsIt() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = SessionTestSupport.storage()
        let transports: [any HTTPTransport] = [SocketTransport(session: SessionOptions(cookieStorage: SessionTestSupport.storage(), cache: nil)),
                                               URLSessionTransport(configuration: configuration)]
        var own = request("/a/hop")
        own.setValue("mine=1", forHTTPHeaderField: "Cookie")
        for transport in transports {
            XCTAssertEqual(try sent(own, through: transport), "mine=1", "\(transport)")
        }
    }

    /// Hops between two hosts (127.0.0.1 and localhost, the same server): each hop stores its
    /// `Set-Cookie` under its own host and sends only its own host's cookies.
    func testEachHopOfARedirectAcrossHostsStoresAndSendsItsOwnHostsCookies() throws {
        let storage = SessionTestSupport.storage()
        storage.setCookie(try cookie("l0", domain: "localhost", path: "/"))
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        XCTAssertEqual(try sent(request("/cross"), through: transport), "h=1", "127.0.0.1's cookie, back on 127.0.0.1")
        XCTAssertNil(server.requests.first { $0.head.path == "/cross" }?.head.headers["Cookie"])
        XCTAssertEqual(server.requests.first { $0.head.path == "/back" }?.head.headers["Cookie"], "l0=1", "localhost's only")
        let hosts = Dictionary((storage.cookies ?? []).map { ($0.name, $0.domain) }) { first, _ in first }
        XCTAssertEqual(hosts, ["h": "127.0.0.1", "l": "localhost", "l0": "localhost"])
    }
}
