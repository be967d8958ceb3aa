import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
@testable import Networking
import TestSupport
import XCTest

/// What `SessionExchange` prepares once per `SessionOptions` and what it still reads per
/// request: the default fields made ready (the same list a dictionary of them gives, kept up to
/// date when `headers` changes, without `Accept-Encoding` for a download), the method as sent,
/// and the cookie storage read for every request (a cookie another thread sets goes with the
/// next request), checked against FeedServer's `/echo` where the wire is the question.
final class SessionExchangeTests: LeakCheckingTestCase {
    private var server: FeedServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try FeedServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private var echoURL: URL { server.baseURL.appendingPathComponent("echo") }

    /// The exchange `options` prepares for `request`, failing the test when the cache would answer.
    private func exchange(_ request: URLRequest, _ options: SessionOptions, downloading: Bool = false) throws -> SessionExchange {
        guard case .send(let exchange) = SessionExchange.start(request, url: try XCTUnwrap(request.url), options: options,
                                                                downloading: downloading, uploading: false) else {
            XCTFail("answered without sending")
            throw URLError(.unknown)
        }
        return exchange
    }

    func testARequestWithoutFieldsSendsTheReadyListWhichIsTheListOfItsFields() throws {
        var options = SessionOptions(cookieStorage: nil, cache: nil)
        let standard = DefaultHeaders.standard
        XCTAssertEqual(try exchange(URLRequest(url: echoURL), options).head, HTTPHeaders(standard))
        XCTAssertEqual(try exchange(URLRequest(url: echoURL), options, downloading: true).head,
                       HTTPHeaders(standard.filter { $0.key != "Accept-Encoding" }), "a download: no Accept-Encoding")
        options.headers["User-Agent"] = "Changed/3"
        options.headers["X-Extra"] = "1"
        let changed = try exchange(URLRequest(url: echoURL), options)
        XCTAssertEqual(changed.head["User-Agent"], "Changed/3", "made ready again when `headers` changes")
        XCTAssertEqual(changed.head, HTTPHeaders(options.headers))

        var own = URLRequest(url: echoURL)
        own.setValue("application/json", forHTTPHeaderField: "Accept")
        own.setValue("Mine/1", forHTTPHeaderField: "user-agent")
        let withOwn = try exchange(own, options)
        var expected = options.headers
        expected["User-Agent"] = nil
        expected.merge(own.allHTTPHeaderFields ?? [:]) { _, own in own }
        XCTAssertEqual(withOwn.head, HTTPHeaders(expected))
        XCTAssertEqual(withOwn.head["User-Agent"], "Mine/1")
    }

    func testSettingAFieldInTheListGivesTheListOfTheDictionaryWithItSet() {
        let fields = ["Accept-Encoding": "gzip", "cookie": "own=1", "User-Agent": "A/1", "X-Long-Field-Name-Here": "x", "Accept": "*/*"]
        var expected = fields
        expected["cookie"] = nil
        expected["Cookie"] = "stored=2"
        XCTAssertEqual(SessionExchange.setting("Cookie", to: "stored=2", in: HTTPHeaders(fields)), HTTPHeaders(expected))
        XCTAssertEqual(SessionExchange.setting("Cookie", to: "c=3", in: HTTPHeaders([:])), HTTPHeaders(["Cookie": "c=3"]))
        XCTAssertEqual(SessionExchange.setting("Cookie", to: "c=3", in: HTTPHeaders(["Zeta": "1"])), HTTPHeaders(["Zeta": "1", "Cookie": "c=3"]))
        XCTAssertEqual(SessionExchange.setting("Cookie", to: "c=3", in: HTTPHeaders(["Accept": "1"])), HTTPHeaders(["Accept": "1", "Cookie": "c=3"]))
    }

    func testADownloadToAFileCarriesTheDefaultFieldsButAcceptEncoding() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let answers = Recorder<Result<Response, ProviderError>>()
        _ = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: nil))
            .send(URLRequest(url: echoURL), options: TransportOptions(downloadFile: file)) { answers.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
        XCTAssertEqual(try XCTUnwrap(answers.values.first).get().statusCode, 200)
        let echo = try JSONDecoder().decode(EchoedRequest.self, from: Data(contentsOf: file))
        XCTAssertEqual(echo.field("User-Agent"), DefaultHeaders.standard["User-Agent"])
        XCTAssertEqual(echo.field("Accept-Language"), DefaultHeaders.standard["Accept-Language"])
        XCTAssertNil(echo.field("Accept-Encoding"), "a body written to a file is not asked for compressed")
    }

    func testTheMethodIsSentUpperCasedAndAnUpperCaseOneAsItIs() throws {
        XCTAssertEqual(SessionExchange.normalizedMethod(nil), "GET")
        XCTAssertEqual(SessionExchange.normalizedMethod(""), "GET")
        XCTAssertEqual(SessionExchange.normalizedMethod("PATCH"), "PATCH")
        XCTAssertEqual(SessionExchange.normalizedMethod("Delete"), "DELETE")
        XCTAssertEqual(SessionExchange.normalizedMethod("propfind"), "PROPFIND")
        XCTAssertEqual(SessionExchange.normalizedMethod("MÉTHODE"), "MÉTHODE".uppercased())
        XCTAssertEqual(SessionExchange.normalizedMethod("mé"), "MÉ")
        let transport = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: nil))
        for (method, sent) in [("post", "POST"), ("Put", "PUT"), ("DELETE", "DELETE")] {
            var request = URLRequest(url: echoURL)
            request.httpMethod = method
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: SessionTestSupport.send(request, through: transport).data)
            XCTAssertEqual(echo.method, sent)
        }
    }

    func testACookieAnotherThreadSetsBetweenTwoRequestsGoesWithTheNextAndADeletedOneDoesNot() throws {
        let storage = SessionTestSupport.storage()
        let transport = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        let cookieSent = { () throws -> String? in
            try JSONDecoder().decode(EchoedRequest.self, from: SessionTestSupport.send(URLRequest(url: self.echoURL), through: transport).data)
                .field("Cookie")
        }
        XCTAssertNil(try cookieSent(), "an empty storage")
        let cookie = try XCTUnwrap(HTTPCookie(properties: [.name: "late", .value: "1", .domain: "127.0.0.1", .path: "/"]))
        let set = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            storage.setCookie(cookie)
            set.signal()
        }
        XCTAssertEqual(set.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try cookieSent(), "late=1")
        storage.deleteCookie(cookie)
        XCTAssertNil(try cookieSent(), "deleted")
    }
}
