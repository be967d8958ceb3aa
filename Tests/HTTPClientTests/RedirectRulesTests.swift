import FeedServer
import Foundation
import HTTPClient
import HTTPWire
import EventLoopIO
import TestSupport
import XCTest

/// Redirects against RFC 9110 §15.4 and §10.2.2, over real sockets: method and body per status,
/// the fields that do not cross origins, how `Location` resolves, the limit, the statuses not
/// followed and the redirect's own body. `FeedServer`'s `/redirect/{status}/1` ends at `/echo`;
/// `ScriptedOrigin` answers with any `Location`.
final class RedirectRulesTests: HTTPClientTestCase {
    private var origins: [ScriptedOrigin] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        // No proxy from the environment: every hop must reach the origins directly.
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), proxy: .none))
    }

    override func tearDown() {
        // Closed first, so that the origins' connection threads see the end at once.
        client?.closeIdleConnections()
        for origin in origins { origin.stop() }
        origins = []
        super.tearDown()
    }

    /// A scripted origin stopped in `tearDown`.
    private func origin(_ script: @escaping ScriptedOrigin.Script) throws -> ScriptedOrigin {
        let origin = try ScriptedOrigin(script: script)
        origins.append(origin)
        return origin
    }

    /// An origin that redirects every target in `locations` with `status` and answers any other
    /// `200` with the request target it received as its body.
    private func redirecting(_ locations: [String: String], status: Int = 302) throws -> ScriptedOrigin {
        try origin { head in
            if let location = locations[head.target] { return .respond(ScriptedOrigin.redirect(status, location: location)) }
            return .respond(ScriptedOrigin.ok(head.target))
        }
    }

    private func echoed(_ response: HTTPClientResponse) throws -> (method: String, body: Data, headers: [String: String]) {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let body = try XCTUnwrap((object["body"] as? String).flatMap { Data(base64Encoded: $0) })
        return (try XCTUnwrap(object["method"] as? String), body, try echoedHeaders(response))
    }

    // MARK: 1. Method and body

    /// 301/302 make a POST a GET, 303 makes any method but HEAD a GET, and the GET goes without
    /// the body and every field describing it (RFC 9110 §15.4, item 4); other methods keep both
    /// on 301/302, as browsers and URLSession do, and 307/308 keep them always.
    func testAMethodMadeGetDropsTheBodyAndTheFieldsThatDescribeIt() throws {
        let contentFields = ["Content-Type", "Content-Encoding", "Content-Language", "Content-Location"]
        let cases: [(method: String, status: Int, becomesGet: Bool)] = [
            ("POST", 301, true), ("POST", 302, true), ("POST", 303, true), ("PUT", 303, true), ("DELETE", 303, true),
            ("PUT", 301, false), ("PATCH", 302, false), ("POST", 307, false), ("PUT", 308, false),
        ]
        for (method, status, becomesGet) in cases {
            var request = HTTPClientRequest(url: url("redirect/\(status)/1"), method: method, body: .bytes(Data("payload".utf8)))
            for name in contentFields { request.headers[name] = name == "Content-Type" ? "text/plain" : "x" }
            request.headers["X-Keep"] = "1"
            let (sent, body, headers) = try echoed(try executeWithCompletion(request).get())
            let label = "\(method) answered \(status)"
            XCTAssertEqual(header("X-Keep", in: headers), "1", label)
            if becomesGet {
                XCTAssertEqual(sent, "GET", label)
                XCTAssertTrue(body.isEmpty, label)
                for name in contentFields + ["Content-Length", "Transfer-Encoding"] {
                    XCTAssertNil(header(name, in: headers), "\(label): \(name) went with the body")
                }
            } else {
                XCTAssertEqual(sent, method, label)
                XCTAssertEqual(String(decoding: body, as: UTF8.self), "payload", label)
                XCTAssertEqual(header("Content-Encoding", in: headers), "x", "\(label): the body's fields stay with it")
            }
        }
    }

    // MARK: 2. Fields that do not cross origins

    /// To another port (another origin), the caller's `Authorization`, `Cookie` and
    /// `Proxy-Authorization` stay behind (RFC 9110 §15.4 items 2 and 3, as AsyncHTTPClient);
    /// to the same origin they go on.
    func testCredentialsStayBehindOnAnotherOrigin() throws {
        let other = try redirecting([:])
        let first = try redirecting(["/away": "http://127.0.0.1:\(other.port)/landing", "/stay": "/here"])
        let credentials: [String: String] = ["Authorization": "Bearer secret", "Cookie": "session=1",
                                             "Proxy-Authorization": "Basic cHJveHk6cHc=", "X-Keep": "1"]
        let away = try executeWithCompletion(HTTPClientRequest(url: first.url("/away"), headers: credentials)).get()
        XCTAssertEqual(away.url, other.url("/landing"))
        let landed = try XCTUnwrap(other.received.last)
        XCTAssertEqual(landed.head.headers["X-Keep"], "1")
        for name in ["Authorization", "Cookie", "Proxy-Authorization"] {
            XCTAssertNil(landed.head.headers[name], "\(name) reached another origin")
        }
        _ = try executeWithCompletion(HTTPClientRequest(url: first.url("/stay"), headers: credentials)).get()
        let stayed = try XCTUnwrap(first.received.last)
        XCTAssertEqual(stayed.head.target, "/here")
        for (name, value) in credentials { XCTAssertEqual(stayed.head.headers[name], value, "\(name) on the same origin") }
    }

    /// A port written out that is the scheme's default names the same origin (RFC 9110 §4.3.1),
    /// so credentials go on to `http://host:80/` from `http://host/`. A scripted server stands in as
    /// the HTTP proxy, so the origin on port 80 needs no socket of its own: every hop reaches it in
    /// absolute form.
    func testADefaultPortWrittenOutIsTheSameOrigin() throws {
        let proxy = try origin { head in
            switch head.target {
            case "http://origin.test/start": .respond(ScriptedOrigin.redirect(302, location: "http://origin.test:80/landing"))
            case "http://origin.test:80/landing", "http://origin.test/landing": .respond(ScriptedOrigin.ok("landed"))
            default: .respond(ScriptedOrigin.ok("unexpected \(head.target)"))
            }
        }
        let endpoint = try XCTUnwrap(ProxyEndpoint("http://127.0.0.1:\(proxy.port)"))
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), proxy: .http(endpoint)))
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://origin.test/start")),
                                        headers: ["Authorization": "Bearer secret", "Cookie": "session=1"])
        let response = try executeWithCompletion(request).get()
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "landed")
        let landed = try XCTUnwrap(proxy.received.last)
        XCTAssertEqual(proxy.received.count, 2)
        XCTAssertEqual(landed.head.headers["Authorization"], "Bearer secret", "Authorization dropped on the same origin")
        XCTAssertEqual(landed.head.headers["Cookie"], "session=1", "Cookie dropped on the same origin")
    }

    // MARK: 3. Location

    /// Relative references resolve against the URL that answered (RFC 3986 §5.2), a
    /// network-path reference to another authority included.
    func testRelativeReferencesResolveAgainstTheURLThatAnswered() throws {
        let other = try redirecting([:])
        let first = try redirecting([
            "/dir/abs": "/a", "/dir/rel": "a", "/dir/sub/up": "../a", "/dir/page?old": "?q",
            "/dir/network": "//127.0.0.1:\(other.port)/p",
        ])
        let expected: [(String, ScriptedOrigin, String)] = [
            ("/dir/abs", first, "/a"), ("/dir/rel", first, "/dir/a"), ("/dir/sub/up", first, "/dir/a"),
            ("/dir/page?old", first, "/dir/page?q"), ("/dir/network", other, "/p"),
        ]
        for (start, landing, target) in expected {
            let response = try executeWithCompletion(HTTPClientRequest(url: first.url(start))).get()
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), target, start)
            XCTAssertEqual(response.url, landing.url(target), start)
        }
    }

    /// A `Location` without a fragment inherits the request's (RFC 9110 §10.2.2), one with a
    /// fragment keeps its own; neither is sent.
    func testALocationWithoutAFragmentInheritsTheRequestsFragment() throws {
        let first = try redirecting(["/plain": "/end", "/own": "/end#new"])
        let inherited = try executeWithCompletion(HTTPClientRequest(url: first.url("/plain#frag"))).get()
        XCTAssertEqual(String(decoding: inherited.body, as: UTF8.self), "/end", "the fragment is not sent")
        XCTAssertEqual(inherited.url.absoluteString, first.url("/end").absoluteString + "#frag")
        let own = try executeWithCompletion(HTTPClientRequest(url: first.url("/own#frag"))).get()
        XCTAssertEqual(String(decoding: own.body, as: UTF8.self), "/end")
        XCTAssertEqual(own.url.absoluteString, first.url("/end").absoluteString + "#new")
        let none = try executeWithCompletion(HTTPClientRequest(url: first.url("/own"))).get()
        XCTAssertEqual(none.url.absoluteString, first.url("/end").absoluteString + "#new")
    }

    /// Spaces and non-ASCII letters in a `Location` are percent-encoded, as browsers send them.
    func testSpacesAndNonASCIIInALocationArePercentEncoded() throws {
        let first = try redirecting(["/space": "/a b", "/letters": "/caf\u{E9}?q=\u{E9}"])
        let space = try executeWithCompletion(HTTPClientRequest(url: first.url("/space"))).get()
        XCTAssertEqual(String(decoding: space.body, as: UTF8.self), "/a%20b")
        let letters = try executeWithCompletion(HTTPClientRequest(url: first.url("/letters"))).get()
        XCTAssertEqual(String(decoding: letters.body, as: UTF8.self), "/caf%C3%A9?q=%C3%A9")
    }

    /// A 3xx without `Location`, with an empty one, or with one to a scheme the client does not
    /// speak (`ftp:`, `javascript:`, and `http+unix:` from a network origin) is the response.
    func testARedirectTheClientCannotFollowIsTheResponse() throws {
        let socketPath = NSTemporaryDirectory() + "redirect-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sock"
        let unixServer = try FeedServer(configuration: .init(unixSocketPath: socketPath))
        defer { unixServer.stop() }
        let encodedPath = try XCTUnwrap(socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let locations = ["/ftp": "ftp://127.0.0.1/file", "/script": "javascript:alert(1)",
                         "/unix": "http+unix://\(encodedPath)/echo"]
        let first = try origin { head in
            switch head.target {
            case "/none": .respond(ScriptedOrigin.response(302, fields: [], body: "no location"))
            case "/empty": .respond(ScriptedOrigin.response(302, fields: [("Location", "")], body: "empty"))
            case let target: .respond(ScriptedOrigin.redirect(302, location: locations[target] ?? "/"))
            }
        }
        for target in ["/none", "/empty", "/ftp", "/script", "/unix"] {
            let response = try executeWithCompletion(HTTPClientRequest(url: first.url(target))).get()
            XCTAssertEqual(response.status, 302, target)
            XCTAssertEqual(response.url, first.url(target), target)
        }
        XCTAssertEqual(first.received.count, 5, "nothing was followed")
        XCTAssertEqual(unixServer.requestCount(path: "/echo"), 0, "a network origin cannot send the client to a local socket")
    }

    // MARK: 4. Limits, Host

    /// A loop between two origins ends at the limit with `tooManyRedirects` naming the redirect
    /// refused (the limit plus one), after the limit's hops plus the first request.
    func testALoopBetweenTwoOriginsEndsAtTheLimit() throws {
        let ports = Recorder<UInt16>()
        let second = try origin { _ in .respond(ScriptedOrigin.redirect(302, location: "http://127.0.0.1:\(ports.values.first ?? 0)/loop")) }
        let first = try redirecting(["/loop": "http://127.0.0.1:\(second.port)/loop"])
        ports.append(first.port)
        let result = try executeWithCompletion(HTTPClientRequest(url: first.url("/loop"), redirects: .follow(max: 3)))
        guard case .failure(.tooManyRedirects(4)) = result else { return XCTFail("expected .tooManyRedirects(4), got \(result)") }
        XCTAssertEqual(first.received.count + second.received.count, 4)
    }

    /// Each hop's `Host` is its own authority; a caller's own `Host` goes to the first origin only
    /// (RFC 9110 §15.4 item 2; curl sends a custom `Host` to the first host only).
    func testEachHopsHostIsItsOwnAuthority() throws {
        let other = try redirecting([:])
        let first = try redirecting(["/away": "http://127.0.0.1:\(other.port)/landing"])
        _ = try executeWithCompletion(HTTPClientRequest(url: first.url("/away"))).get()
        XCTAssertEqual(first.received.last?.head.headers["Host"], "127.0.0.1:\(first.port)")
        XCTAssertEqual(other.received.last?.head.headers["Host"], "127.0.0.1:\(other.port)")
        _ = try executeWithCompletion(HTTPClientRequest(url: first.url("/away"), headers: ["Host": "api.example"])).get()
        XCTAssertEqual(first.received.last?.head.headers["Host"], "api.example")
        XCTAssertEqual(other.received.last?.head.headers["Host"], "127.0.0.1:\(other.port)", "the caller's Host went to another origin")
    }

    // MARK: 5. Statuses not followed

    /// 300, 304, 305 and 306 with a `Location` are returned as they are.
    func testMultipleChoicesNotModifiedUseProxyAndUnusedAreNotFollowed() throws {
        let first = try origin { head in
            guard let status = Int(head.target.dropFirst()) else { return .respond(ScriptedOrigin.ok(head.target)) }
            let body = status == 304 ? "" : "status \(status)"
            return .respond(ScriptedOrigin.response(status, fields: [("Location", "/elsewhere")], body: body))
        }
        for status in [300, 304, 305, 306] {
            let response = try executeWithCompletion(HTTPClientRequest(url: first.url("/\(status)"))).get()
            XCTAssertEqual(response.status, status)
            XCTAssertEqual(response.url, first.url("/\(status)"))
        }
        XCTAssertFalse(first.received.contains { $0.head.target == "/elsewhere" })
    }

    // MARK: 6. The redirect's own body

    /// A redirect's body framed by its length or chunks is read and dropped and its connection
    /// carries the next hop; one delimited by the close ends its connection, and the next hop
    /// opens another.
    func testARedirectsBodyIsDroppedAndItsConnectionReusedWhenFramed() throws {
        let framed = try origin { head in
            switch head.target {
            case "/length": .respond(ScriptedOrigin.redirect(302, location: "/chunked", body: String(repeating: "x", count: 5_000)))
            case "/chunked": .respond(Array("HTTP/1.1 302 Found\r\nLocation: /end\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nmoved\r\n0\r\n\r\n".utf8))
            case "/closed": .respondAndClose(Array("HTTP/1.1 302 Found\r\nLocation: /end\r\nConnection: close\r\n\r\nmoved, then closed".utf8))
            case let target: .respond(ScriptedOrigin.ok(target))
            }
        }
        let response = try executeWithCompletion(HTTPClientRequest(url: framed.url("/length"))).get()
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "/end", "the redirects' bodies are not the response's")
        XCTAssertEqual(framed.received.map(\.head.target), ["/length", "/chunked", "/end"])
        XCTAssertEqual(Set(framed.received.map(\.connection)).count, 1, "one connection carried the three hops")
        let closed = try executeWithCompletion(HTTPClientRequest(url: framed.url("/closed"))).get()
        XCTAssertEqual(String(decoding: closed.body, as: UTF8.self), "/end")
        let lastTwo = framed.received.suffix(2).map(\.connection)
        XCTAssertNotEqual(lastTwo.first, lastTwo.last, "the hop after a close-delimited redirect goes on a new connection")
    }
}

/// An HTTP/1.1 origin on 127.0.0.1 whose answers a script gives, request by request
/// (`ScriptedHTTPServer`), recording each request with the number of the connection it came on.
private final class ScriptedOrigin: Sendable {
    /// A request received and the connection (numbered from 1) it came on.
    struct Received: Sendable {
        let connection: Int
        let head: HTTPRequestHead
    }

    typealias Script = @Sendable (HTTPRequestHead) -> ScriptedHTTPServer.Reply

    private let server: ScriptedHTTPServer
    private let log: Recorder<Received>

    init(script: @escaping Script) throws {
        let log = Recorder<Received>()
        server = try ScriptedHTTPServer { connection, _, head in
            log.append(Received(connection: connection, head: head))
            return script(head)
        }
        self.log = log
    }

    /// The listening port.
    var port: UInt16 { server.port }

    /// `http://127.0.0.1:PORT` followed by `target` (a path, query and fragment as written).
    func url(_ target: String) -> URL {
        server.url(target)
    }

    /// Every request received, in arrival order.
    var received: [Received] { log.values }

    func stop() {
        server.stop()
    }

    /// A response of `status` with `fields`, and `body` under its `Content-Length`.
    static func response(_ status: Int, fields: [(String, String)], body: String) -> [UInt8] {
        var text = "HTTP/1.1 \(status) Status\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        text += status == 304 ? "\r\n" : "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        return Array(text.utf8)
    }

    /// A redirect of `status` to `location` with a short body.
    static func redirect(_ status: Int, location: String, body: String = "moved") -> [UInt8] {
        response(status, fields: [("Location", location)], body: body)
    }

    /// A `200` whose body is `text`.
    static func ok(_ text: String) -> [UInt8] {
        response(200, fields: [], body: text)
    }
}
