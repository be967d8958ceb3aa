import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
@testable import Networking
import TestSupport
import XCTest

/// The fields every request carries (Alamofire's `HTTPHeaders.default`), checked by what a real
/// server (FeedServer's `/echo`) receives and by what plugins see; and what `SessionExchange`
/// makes ready once per `SessionOptions` (the same list a dictionary of the fields gives, kept up
/// to date when `headers` changes, without `Accept-Encoding` for a download) and the method as sent.
final class DefaultHeadersTests: FeedServerTestCase {
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
        options.headers["user-agent"] = "Twice/4"
        let twice = try exchange(URLRequest(url: echoURL), options)
        XCTAssertEqual(twice.head.values(for: "User-Agent").count, 1, "names that differ only in case go once, as before")
        XCTAssertEqual(twice.head.count, options.headers.count - 1)
        options.headers["user-agent"] = nil

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
        XCTAssertEqual(SessionExchange.setting("Cookie", to: "c=3", in: HTTPHeaders(["Cookiè": "1", "Cöokie": "2", "COOK": "3"])),
                       HTTPHeaders(["Cookiè": "1", "Cöokie": "2", "COOK": "3", "Cookie": "c=3"]), "names beyond ASCII ordered as lower-cased strings")
    }

    func testSettingSeveralFieldsInOnePassGivesTheListOfTheDictionaryWithThemSet() {
        let fields = ["Accept-Encoding": "gzip", "if-none-match": "old", "User-Agent": "A/1", "X-Long-Field-Name-Here": "x", "Accept": "*/*"]
        let added = [HTTPHeaders.Field(name: "If-Modified-Since", value: "Sun, 06 Nov 1994 08:49:37 GMT"),
                     HTTPHeaders.Field(name: "If-None-Match", value: "\"v1\"")]
        var expected = fields
        expected["if-none-match"] = nil
        for field in added { expected[field.name] = field.value }
        XCTAssertEqual(SessionExchange.setting(added, in: HTTPHeaders(fields)), HTTPHeaders(expected))
        XCTAssertEqual(SessionExchange.setting(added, in: HTTPHeaders([:])), HTTPHeaders(Dictionary(uniqueKeysWithValues: added.map { ($0.name, $0.value) })))
        XCTAssertEqual(SessionExchange.setting([], in: HTTPHeaders(fields)), HTTPHeaders(fields))
    }

    /// A request's own fields with the defaults it lacks merged in: the list of the dictionary
    /// of both, the request's value winning over a default of the same name in any case.
    func testMergingTheDefaultsGivesTheListOfTheDictionaryOfBoth() {
        let defaults = ["Accept-Encoding": "gzip, deflate", "Accept-Language": "en;q=1.0", "User-Agent": "App/1 Networking/1.0"]
        let requests: [[String: String]] = [
            [:], ["Cache-Control": "no-store"], ["user-agent": "Mine/2"], ["ACCEPT-ENCODING": "identity", "X-Z": "z", "A": "a"],
            ["Accept": "*/*", "Authorization": "Bearer t", "Content-Type": "application/json", "Zeta": "z", "accept-language": "de"],
            ["Cookiè": "1", "Ünicode": "2", "Accept-Languagf": "3"],
        ]
        for own in requests {
            var expected = own
            for (name, value) in defaults where !own.keys.contains(where: { $0.lowercased() == name.lowercased() }) { expected[name] = value }
            XCTAssertEqual(DefaultFields.merging(HTTPHeaders(defaults), into: HTTPHeaders(own)), HTTPHeaders(expected), "\(own)")
        }
    }

    func testNamesAreOrderedAsTheirLowerCasedStrings() {
        let names = ["If-None-Match", "if-modified-since", "IF", "Accept", "accept-encoding", "X-Z", "x-a", "Cookiè", "Cöokie", "COOK", "", "É"]
        for lhs in names {
            for rhs in names {
                XCTAssertEqual(HTTPHeaders.nameSortsBefore(lhs, rhs), lhs.lowercased() < rhs.lowercased(), "\(lhs) before \(rhs)")
            }
        }
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
}
