import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FeedServer
import HTTPWire
import Networking
import TestSupport
import XCTest

/// Cookies end to end against a scripted server that sets a session cookie at `/login` and
/// answers `/me` with 401 without it: through `SocketTransport` and, side by side where Linux's
/// URLSession does the same, through `URLSessionTransport`, with the same observable result
/// (what the server received, what the caller got, what the storage holds).
final class CookieLoginTests: LeakCheckingTestCase {
    private var server: ScriptedHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try ScriptedHTTPServer { _, _, head in
            let cookie = head.headers["Cookie"] ?? ""
            switch head.path {
            case "/login":
                return SessionTestSupport.answer(200, [("Set-Cookie", "session=s3cret; Path=/; HttpOnly"),
                                                      ("Set-Cookie", "theme=dark; Max-Age=600; Path=/")], body: "welcome")
            case "/me":
                return cookie.contains("session=s3cret") ? SessionTestSupport.answer(200, body: "you") : SessionTestSupport.answer(401, body: "who?")
            case "/hop":
                return SessionTestSupport.answer(302, [("Location", "/hop2"), ("Set-Cookie", "hop=1; Path=/hop2")])
            case "/hop2":
                return SessionTestSupport.answer(200, body: cookie)
            case "/secure":
                return SessionTestSupport.answer(200, [("Set-Cookie", "tls=1; Secure; Path=/")])
            default:
                return SessionTestSupport.answer(200, body: cookie)
            }
        }
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func request(_ path: String) -> URLRequest {
        URLRequest(url: server.url(path))
    }

    /// The login flow through `transport`; returns the statuses of `/me` before and after, and
    /// the `Cookie` field the server saw on the second `/me`.
    private func login(through transport: any HTTPTransport) throws -> (before: Int, after: Int, cookie: String?) {
        let before = try SessionTestSupport.send(request("/me"), through: transport).statusCode
        XCTAssertEqual(try SessionTestSupport.send(request("/login"), through: transport).statusCode, 200)
        let after = try SessionTestSupport.send(request("/me"), through: transport).statusCode
        let cookie = server.requests.last { $0.head.path == "/me" }?.head.headers["Cookie"]
        return (before, after, cookie)
    }

    func testALoginByCookieWorksThroughBothTransportsAlike() throws {
        let socketStorage = SessionTestSupport.storage()
        let socket = try login(through: SocketTransport(session: SessionOptions(cookieStorage: socketStorage)))
        let configuration = URLSessionConfiguration.ephemeral
        let sessionStorage = SessionTestSupport.storage()
        configuration.httpCookieStorage = sessionStorage
        let session = try login(through: URLSessionTransport(configuration: configuration))
        XCTAssertEqual(socket.before, 401)
        XCTAssertEqual(socket.after, 200)
        XCTAssertEqual(socket.before, session.before)
        XCTAssertEqual(socket.after, session.after)
        XCTAssertEqual(Set(socket.cookie?.components(separatedBy: "; ") ?? []), ["session=s3cret", "theme=dark"])
        XCTAssertEqual(Set(socket.cookie?.components(separatedBy: "; ") ?? []), Set(session.cookie?.components(separatedBy: "; ") ?? []))
        XCTAssertEqual(Set(socketStorage.cookies?.map(\.name) ?? []), Set(sessionStorage.cookies?.map(\.name) ?? []))
        let theme = try XCTUnwrap(socketStorage.cookies?.first { $0.name == "theme" })
        XCTAssertEqual(try XCTUnwrap(theme.expiresDate).timeIntervalSinceNow, 600, accuracy: 30, "Max-Age honoured")
        XCTAssertTrue(try XCTUnwrap(socketStorage.cookies?.first { $0.name == "session" }).isHTTPOnly)
    }

    func testTheSharedStorageIsTheDefaultAsURLSessionConfigurationDefaults() throws {
        let name = "seeded\(UInt32.random(in: 0...UInt32.max))"
        let seeded = try XCTUnwrap(HTTPCookie(properties: [.name: name, .value: "1", .domain: "127.0.0.1", .path: "/"]))
        HTTPCookieStorage.shared.setCookie(seeded)
        defer { HTTPCookieStorage.shared.deleteCookie(seeded) }
        let response = try SessionTestSupport.send(request("/echo"), through: SocketTransport())
        XCTAssertEqual(String(decoding: response.data, as: UTF8.self), "\(name)=1")
    }

    /// The storage is read for every request (nothing tells a transport it changed): a cookie
    /// another thread sets between two requests goes with the second, and a deleted one no more.
    func testACookieAnotherThreadSetsBetweenTwoRequestsGoesWithTheNextAndADeletedOneDoesNot() throws {
        let storage = SessionTestSupport.storage()
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        let cookieSent = { () throws -> String in
            String(decoding: try SessionTestSupport.send(self.request("/echo"), through: transport).data, as: UTF8.self)
        }
        XCTAssertEqual(try cookieSent(), "", "an empty storage")
        let cookie = try XCTUnwrap(HTTPCookie(properties: [.name: "late", .value: "1", .domain: "127.0.0.1", .path: "/"]))
        let set = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            storage.setCookie(cookie)
            set.signal()
        }
        XCTAssertEqual(set.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try cookieSent(), "late=1")
        storage.deleteCookie(cookie)
        XCTAssertEqual(try cookieSent(), "", "deleted")
    }

    func testNoStorageOrARequestThatDoesNotHandleCookiesSendsAndStoresNone() throws {
        let storage = SessionTestSupport.storage()
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage))
        var quiet = request("/login")
        quiet.httpShouldHandleCookies = false
        _ = try SessionTestSupport.send(quiet, through: transport)
        XCTAssertEqual(storage.cookies?.count, 0)
        XCTAssertEqual(try SessionTestSupport.send(request("/me"), through: SocketTransport(session: SessionOptions(cookieStorage: nil))).statusCode, 401)
        _ = try SessionTestSupport.send(request("/login"), through: SocketTransport(session: SessionOptions(cookieStorage: nil)))
        XCTAssertEqual(try SessionTestSupport.send(request("/me"), through: SocketTransport(session: SessionOptions(cookieStorage: nil))).statusCode, 401)
    }

    func testARequestsOwnCookieIsKeptWhenNoneIsStoredAndReplacedByStoredOnesAsURLSessionOnLinuxDoes() throws {
        let socketStorage = SessionTestSupport.storage()
        let socket = SocketTransport(session: SessionOptions(cookieStorage: socketStorage))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = SessionTestSupport.storage()
        let session = URLSessionTransport(configuration: configuration)
        var own = request("/echo")
        own.setValue("mine=1", forHTTPHeaderField: "Cookie")
        for transport in [socket as any HTTPTransport, session] {
            XCTAssertEqual(String(decoding: try SessionTestSupport.send(own, through: transport).data, as: UTF8.self), "mine=1")
            _ = try SessionTestSupport.send(request("/login"), through: transport)
            let replaced = String(decoding: try SessionTestSupport.send(own, through: transport).data, as: UTF8.self)
            XCTAssertEqual(Set(replaced.components(separatedBy: "; ")), ["session=s3cret", "theme=dark"], "\(transport)")
        }
    }

    func testEachRedirectHopStoresAndSendsItsOwnCookies() throws {
        let storage = SessionTestSupport.storage()
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage))
        let response = try SessionTestSupport.send(request("/hop"), through: transport)
        XCTAssertEqual(String(decoding: response.data, as: UTF8.self), "hop=1", "the redirect's cookie went with the next hop")
        XCTAssertNil(server.requests.first { $0.head.path == "/hop" }?.head.headers["Cookie"])
        XCTAssertEqual(storage.cookies?.map(\.name), ["hop"])
    }

    func testASecureCookieNeverGoesOverPlainHTTP() throws {
        let storage = SessionTestSupport.storage()
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage))
        _ = try SessionTestSupport.send(request("/secure"), through: transport)
        XCTAssertEqual(storage.cookies?.first?.isSecure, true)
        XCTAssertEqual(String(decoding: try SessionTestSupport.send(request("/echo"), through: transport).data, as: UTF8.self), "")
    }

    func testTheAcceptPolicyNeverStoresNothing() throws {
        let storage = SessionTestSupport.storage()
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cookieAcceptPolicy: .never))
        _ = try SessionTestSupport.send(request("/login"), through: transport)
        XCTAssertEqual(storage.cookies?.count, 0)
        XCTAssertEqual(try SessionTestSupport.send(request("/me"), through: transport).statusCode, 401)
    }
}

/// A `Secure` cookie goes over https: FeedServer over TLS echoes what it received.
final class SecureCookieTests: LeakCheckingTestCase {
    func testASecureCookieGoesOverHTTPS() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        defer { server.stop() }
        let storage = SessionTestSupport.storage()
        let cookie = try XCTUnwrap(HTTPCookie(properties: [.name: "tls", .value: "1", .domain: "localhost", .path: "/", .secure: "TRUE"]))
        storage.setCookie(cookie)
        let transport = SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client),
                                        session: SessionOptions(cookieStorage: storage))
        let response = try SessionTestSupport.send(URLRequest(url: server.baseURL.appendingPathComponent("echo")), through: transport)
        let echo = try JSONDecoder().decode(EchoedRequest.self, from: response.data)
        XCTAssertEqual(server.baseURL.scheme, "https")
        XCTAssertEqual(echo.field("Cookie"), "tls=1")
    }
}
