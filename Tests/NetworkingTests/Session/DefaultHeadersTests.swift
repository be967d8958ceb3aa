import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

/// The fields every request carries (Alamofire's `HTTPHeaders.default`), checked by what a real
/// server (FeedServer's `/echo`) receives and by what plugins see.
final class DefaultHeadersTests: LeakCheckingTestCase {
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

    private func echoed(_ request: URLRequest, through transport: any HTTPTransport) throws -> EchoedRequest {
        try JSONDecoder().decode(EchoedRequest.self, from: SessionTestSupport.send(request, through: transport).data)
    }

    func testAcceptLanguageHasQualitiesDescendingByATenthForAtMostSix() {
        XCTAssertEqual(DefaultHeaders.acceptLanguage([]), "en;q=1.0")
        XCTAssertEqual(DefaultHeaders.acceptLanguage(["fr-CH"]), "fr-CH;q=1.0")
        XCTAssertEqual(DefaultHeaders.acceptLanguage(["de", "fr", "it", "en", "es", "pt", "nl"]),
                       "de;q=1.0, fr;q=0.9, it;q=0.8, en;q=0.7, es;q=0.6, pt;q=0.5")
    }

    func testUserAgentNamesTheExecutableItsVersionTheSystemAndTheLibrary() {
        XCTAssertEqual(DefaultHeaders.userAgent(executable: "viewer", info: nil, system: "Linux 6.1.0"),
                       "viewer/unknown (viewer; build:unknown; Linux 6.1.0) Networking/1.0")
        let info: [String: Any] = ["CFBundleShortVersionString": "2.3", "CFBundleVersion": "41", "CFBundleIdentifier": "com.example.viewer"]
        XCTAssertEqual(DefaultHeaders.userAgent(executable: "Viewer", info: info, system: "iOS 17.2.0"),
                       "Viewer/2.3 (com.example.viewer; build:41; iOS 17.2.0) Networking/1.0")
        let standard = DefaultHeaders.standard["User-Agent"] ?? ""
        XCTAssertTrue(standard.hasPrefix(ProcessInfo.processInfo.processName + "/"), standard)
        XCTAssertTrue(standard.contains(DefaultHeaders.operatingSystem), standard)
        XCTAssertTrue(standard.hasSuffix(" Networking/1.0"), standard)
    }

    func testTheServerReceivesTheDefaultFieldsThroughTheSocketTransport() throws {
        let echo = try echoed(URLRequest(url: echoURL), through: SocketTransport())
        for (name, value) in DefaultHeaders.standard {
            XCTAssertEqual(echo.field(name), value, name)
        }
    }

    func testTheRequestsOwnFieldWinsAndTheTransportCanChangeOrDropTheDefaults() throws {
        var request = URLRequest(url: echoURL)
        request.setValue("Mine/1", forHTTPHeaderField: "user-agent")
        let own = try echoed(request, through: SocketTransport())
        XCTAssertEqual(own.field("User-Agent"), "Mine/1")
        XCTAssertEqual(own.field("Accept-Language"), DefaultHeaders.standard["Accept-Language"])

        var options = SessionOptions()
        options.headers["User-Agent"] = "Changed/2"
        options.headers["Accept-Language"] = nil
        let changed = try echoed(URLRequest(url: echoURL), through: SocketTransport(session: options))
        XCTAssertEqual(changed.field("User-Agent"), "Changed/2")
        XCTAssertNil(changed.field("Accept-Language"))
    }

    private struct EchoTarget: TargetType {
        var baseURL: URL
        var path: String { "/echo" }
        var method: HTTPMethod { .get }
        var task: RequestTask { .requestPlain }
        var headers: [String: String]? { ["Accept-Language": "de-CH"] }
    }

    /// Records the request each plugin hook sees.
    private final class SeenRequests: PluginType, Sendable {
        let prepared = Recorder<URLRequest>()
        let sent = Recorder<URLRequest>()
        func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
            prepared.append(request)
            return request
        }
        func willSend(_ request: any RequestType, target: any TargetType) {
            if let request = request.request { sent.append(request) }
        }
    }

    func testTheProviderAddsThemBeforePluginsSeeTheRequestStubsIncludedAndTheTargetsOwnWins() throws {
        for stubbed in [false, true] {
            let seen = SeenRequests()
            let provider = NetworkProvider<EchoTarget>(stubClosure: stubbed ? NetworkProvider.immediatelyStub : NetworkProvider.neverStub,
                                                       plugins: [seen])
            let answers = Recorder<Result<Response, ProviderError>>()
            provider.request(EchoTarget(baseURL: server.baseURL)) { answers.append($0) }
            XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 })
            for request in [seen.prepared.values.first, seen.sent.values.first] {
                let request = try XCTUnwrap(request)
                XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), DefaultHeaders.standard["User-Agent"], "stubbed: \(stubbed)")
                XCTAssertEqual(request.value(forHTTPHeaderField: "Accept-Encoding"), DefaultHeaders.acceptEncoding)
                XCTAssertEqual(request.value(forHTTPHeaderField: "Accept-Language"), "de-CH", "the target's own value wins")
            }
            if !stubbed {
                let echo = try JSONDecoder().decode(EchoedRequest.self, from: try XCTUnwrap(answers.values.first).get().data)
                XCTAssertEqual(echo.field("Accept-Language"), "de-CH")
                XCTAssertEqual(echo.field("User-Agent"), DefaultHeaders.standard["User-Agent"])
            }
        }
    }
}
