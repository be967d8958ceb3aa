import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Networking
import TestSupport
import XCTest

/// RFC 6265's parsing and matching rules, pure, with real `Set-Cookie` values: the parts
/// Foundation's `HTTPCookie` on Linux gets wrong (`Max-Age` ignored, path and `Secure` not
/// matched) included.
final class CookieRulesTests: LeakCheckingTestCase {
    private let url = URL(fixed: "http://a.example.com/shop/cart")
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    func testNameValueAndAttributesAreParsedAsRFC6265Says() throws {
        let cookie = try XCTUnwrap(SetCookie("sid = abc=1 ; Path=/shop; Secure; HttpOnly; Domain=.Example.COM", from: url, now: now))
        XCTAssertEqual(cookie.name, "sid")
        XCTAssertEqual(cookie.value, "abc=1")
        XCTAssertEqual(cookie.domain, "example.com")
        XCTAssertFalse(cookie.hostOnly)
        XCTAssertEqual(cookie.path, "/shop")
        XCTAssertTrue(cookie.secure)
        XCTAssertTrue(cookie.httpOnly)
        XCTAssertNil(cookie.expires, "a session cookie")
        XCTAssertNil(SetCookie("novalue", from: url, now: now), "no '=': ignored")
        XCTAssertNil(SetCookie("=x", from: url, now: now), "an empty name: ignored")
    }

    func testMaxAgeWinsOverExpiresAndZeroOrLessExpiresAtOnce() throws {
        let both = try XCTUnwrap(SetCookie("a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=60", from: url, now: now))
        XCTAssertEqual(both.expires, now.addingTimeInterval(60))
        let expires = try XCTUnwrap(SetCookie("a=1; expires=Wed, 21-Oct-2037 07:28:00 GMT", from: url, now: now))
        XCTAssertEqual(expires.expires, Date(timeIntervalSince1970: 2_139_722_880))
        XCTAssertTrue(try XCTUnwrap(SetCookie("a=1; Max-Age=0", from: url, now: now)).isExpired(at: now))
        XCTAssertTrue(try XCTUnwrap(SetCookie("a=1; Max-Age=-5", from: url, now: now)).isExpired(at: now))
        XCTAssertNil(try XCTUnwrap(SetCookie("a=1; Max-Age=soon", from: url, now: now)).expires, "not a number: ignored")
    }

    func testTheDomainMustCoverTheHostAndTheDefaultPathIsTheDirectory() throws {
        XCTAssertNil(SetCookie("a=1; Domain=other.com", from: url, now: now))
        XCTAssertNil(SetCookie("a=1; Domain=com", from: URL(fixed: "http://example.com/"), now: now), "a top-level name")
        XCTAssertNil(SetCookie("a=1; Domain=0.0.1", from: URL(fixed: "http://127.0.0.1/"), now: now), "an address by suffix")
        let host = try XCTUnwrap(SetCookie("a=1", from: url, now: now))
        XCTAssertEqual(host.domain, "a.example.com")
        XCTAssertTrue(host.hostOnly)
        XCTAssertEqual(host.path, "/shop")
        XCTAssertEqual(try XCTUnwrap(SetCookie("a=1", from: URL(fixed: "http://h/top"), now: now)).path, "/")
        XCTAssertEqual(try XCTUnwrap(SetCookie("a=1; Path=relative", from: url, now: now)).path, "/shop", "a path not starting with /")
    }

    func testDomainAndPathMatching() {
        XCTAssertTrue(CookieMatching.domainMatches(host: "a.example.com", domain: "example.com"))
        XCTAssertTrue(CookieMatching.domainMatches(host: "example.com", domain: "example.com"))
        XCTAssertFalse(CookieMatching.domainMatches(host: "badexample.com", domain: "example.com"))
        XCTAssertFalse(CookieMatching.domainMatches(host: "10.0.0.1", domain: "0.0.1"))
        XCTAssertTrue(CookieMatching.pathMatches(requestPath: "/shop", cookiePath: "/shop"))
        XCTAssertTrue(CookieMatching.pathMatches(requestPath: "/shop/cart", cookiePath: "/shop"))
        XCTAssertTrue(CookieMatching.pathMatches(requestPath: "/shop/cart", cookiePath: "/shop/"))
        XCTAssertFalse(CookieMatching.pathMatches(requestPath: "/shopping", cookiePath: "/shop"))
        XCTAssertFalse(CookieMatching.pathMatches(requestPath: "/", cookiePath: "/shop"))
    }

    func testTheJarSendsByDomainPathSecureAndExpiryAndDeletesAnExpiredReplacement() throws {
        let storage = SessionTestSupport.storage()
        let jar = CookieJar(storage: storage, acceptPolicy: .always, setsCookies: true)
        let now = Date()  // the storage itself drops cookies expired by the clock
        jar.store(["host=1", "wide=2; Domain=example.com; Path=/", "deep=3; Path=/shop/cart", "safe=4; Secure; Path=/",
                   "old=5; Max-Age=1; Path=/; Domain=example.com"], from: url, mainDocumentURL: nil, now: now)
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://a.example.com/shop/cart/item"), now: now), "deep=3; host=1; old=5; wide=2",
                       "longer paths first, then by name; Secure only over https")
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "https://a.example.com/"), now: now), "old=5; safe=4; wide=2")
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://b.example.com/shop"), now: now), "old=5; wide=2", "host-only stays on its host")
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://b.example.com/shop"), now: now.addingTimeInterval(2)), "wide=2", "expired")
        XCTAssertNil(jar.cookieHeader(for: URL(fixed: "http://example.org/"), now: now))
        jar.store(["wide=gone; Domain=example.com; Path=/; Max-Age=0"], from: url, mainDocumentURL: nil, now: now)
        XCTAssertEqual(jar.cookieHeader(for: URL(fixed: "http://b.example.com/"), now: now), "old=5")
    }

    func testTheAcceptPolicyDecidesWhatIsStored() {
        let never = SessionTestSupport.storage()
        CookieJar(storage: never, acceptPolicy: .never, setsCookies: true).store(["a=1"], from: url, mainDocumentURL: nil, now: now)
        XCTAssertEqual(never.cookies?.count, 0)
        let main = SessionTestSupport.storage()
        let jar = CookieJar(storage: main, acceptPolicy: .onlyFromMainDocumentDomain, setsCookies: true)
        jar.store(["a=1"], from: url, mainDocumentURL: URL(fixed: "http://other.org/"), now: now)
        XCTAssertEqual(main.cookies?.count, 0, "a third party's cookie")
        jar.store(["b=2; Domain=example.com"], from: url, mainDocumentURL: URL(fixed: "http://www.example.com/"), now: now)
        jar.store(["c=3"], from: url, mainDocumentURL: nil, now: now)
        XCTAssertEqual(Set(main.cookies?.map(\.name) ?? []), ["b", "c"])
        let off = CookieJar(storage: main, acceptPolicy: nil, setsCookies: false)
        XCTAssertNil(off.cookieHeader(for: url, now: now), "httpShouldSetCookies off")
    }

    func testHTTPDatesInEveryFormRoundTrip() throws {
        let date = Date(timeIntervalSince1970: 784_111_777)
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            XCTAssertEqual(HTTPDate.parse(text), date, text)
        }
        XCTAssertEqual(HTTPDate.format(date), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(Date(timeIntervalSince1970: 1_709_208_000)), "Thu, 29 Feb 2024 12:00:00 GMT")
        XCTAssertNil(HTTPDate.parse("yesterday"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT"))
    }
}
