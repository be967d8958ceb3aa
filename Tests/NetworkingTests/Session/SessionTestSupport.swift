import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
import Networking
import TestSupport
import XCTest

/// Helpers of the session tests (default fields, cookies, caching): raw answers for
/// `ScriptedHTTPServer`, and one request through a transport, waited for (bounded).
enum SessionTestSupport {
    /// A plain GET of the test server's `/echo`, which answers what it received.
    struct EchoTarget: TargetType {
        var baseURL: URL
        var path: String { "/echo" }
        var method: HTTPMethod { .get }
        var task: RequestTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    /// An HTTP/1.1 answer with `fields` (in order, repeats allowed) and `body`, framed by `Content-Length`.
    static func answer(_ status: Int, _ fields: [(String, String)] = [], body: String = "") -> ScriptedHTTPServer.Reply {
        var text = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        return .respond(Array(text.utf8))
    }

    /// The one answer a provider over `transport` (as the default transport sends) gives an
    /// `EchoTarget` at `baseURL`, within 10 s.
    static func echo(at baseURL: URL, through transport: SocketTransport,
                     file: StaticString = #filePath, line: UInt = #line) throws -> Response {
        let provider = NetworkProvider<EchoTarget>(transport: DefaultTransport(socketTransport: transport))
        let answers = Recorder<Result<Response, ProviderError>>()
        provider.request(EchoTarget(baseURL: baseURL)) { answers.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 }, "no answer", file: file, line: line)
        return try XCTUnwrap(answers.values.first, file: file, line: line).get()
    }

    /// The one answer `transport` gives `request`, within 10 s.
    static func send(_ request: URLRequest, through transport: any HTTPTransport,
                     file: StaticString = #filePath, line: UInt = #line) throws -> Response {
        let answers = Recorder<Result<Response, ProviderError>>()
        _ = transport.send(request, progress: nil) { answers.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 }, "no answer", file: file, line: line)
        return try XCTUnwrap(answers.values.first, file: file, line: line).get()
    }

    /// The failure `transport` reports for `request`, within 10 s.
    static func failure(_ request: URLRequest, through transport: any HTTPTransport,
                        file: StaticString = #filePath, line: UInt = #line) throws -> ProviderError {
        let answers = Recorder<Result<Response, ProviderError>>()
        _ = transport.send(request, progress: nil) { answers.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 }, "no answer", file: file, line: line)
        switch try XCTUnwrap(answers.values.first, file: file, line: line) {
        case .success(let response):
            XCTFail("answered \(response.statusCode)", file: file, line: line)
            throw ProviderError.statusCode(response)
        case .failure(let error):
            return error
        }
    }

    /// A cookie storage of the test's own (never the process's shared one).
    static func storage() -> HTTPCookieStorage {
        HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "SessionTests-\(UUID().uuidString)")
    }
}

/// What FeedServer's `/echo` answers: the request's fields, names as received.
struct EchoedRequest: Decodable {
    let headers: [String: String]
    let method: String
    let path: String

    /// The field `name`, matched without case.
    func field(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
