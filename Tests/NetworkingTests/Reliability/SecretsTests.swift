import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// A target that carries a bearer token from `AccessTokenPlugin`.
struct SecuredRoute: AccessTokenAuthorizable {
    let baseURL: URL
    let path: String
    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
    var authorizationType: AuthorizationType? { .bearer }
}

/// Tokens never leak: not into error descriptions (in any of their textual forms), and
/// nothing in the sources turns off TLS certificate checks.
final class SecretsTests: LeakCheckingTestCase {
    private let token = "tok-3f9a1c-SECRET-77"

    /// Every way a caller might print an error.
    private func renderings(of error: any Error) -> [String] {
        var texts = [String(describing: error), String(reflecting: error), error.localizedDescription, "\(error)"]
        if let api = error as? APIError {
            texts.append(api.errorDescription ?? "")
            texts.append(contentsOf: api.errorCodes)
            texts.append(RequestLog.failureLine(for: api))
        }
        return texts
    }

    private func failure(of route: SecuredRoute, transport: any HTTPTransport) -> (any Error)? {
        let token = self.token
        let provider = NetworkProvider<SecuredRoute>(transport: transport, plugins: [AccessTokenPlugin { _ in token }])
        let outcome = Recorder<Result<Response, any Error>>()
        let subscription = provider.rx.request(route).filterSuccessfulStatusCodes().classifyErrors()
            .subscribe { outcome.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { outcome.count == 1 })
        subscription.dispose()
        guard case .failure(let error)? = outcome.values.first else {
            XCTFail("expected a failure, got \(String(describing: outcome.values.first))")
            return nil
        }
        return error
    }

    func testTheTokenIsSentButNeverAppearsInErrorDescriptions() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let transports: [any HTTPTransport] = [SocketTransport(), URLSessionTransport(configuration: .ephemeral)]
        for transport in transports {
            for path in ["status/401", "status/500?body=html", "drop"] {
                guard let error = failure(of: SecuredRoute(baseURL: server.baseURL, path: path), transport: transport) else {
                    continue
                }
                for text in renderings(of: error) {
                    XCTAssertFalse(text.contains(token), "\(type(of: transport)) \(path): the token leaked into \(text)")
                }
            }
        }
        let echoed = Recorder<String>()
        let provider = NetworkProvider<SecuredRoute>(plugins: [AccessTokenPlugin { [token] _ in token }])
        let subscription = provider.rx.request(SecuredRoute(baseURL: server.baseURL, path: "echo")).mapString()
            .subscribe(onSuccess: { echoed.append($0) })
        XCTAssertTrue(waitUntil(timeout: 10) { echoed.count == 1 })
        subscription.dispose()
        XCTAssertTrue(echoed.values.first?.contains("Bearer \(token)") == true, "the header does reach the server")
    }

    func testNothingInTheSourcesDisablesCertificateChecks() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let patterns = ["serverTrust", "URLAuthenticationChallenge", "SecTrust", "useCredential",
                        "allowsInsecure", "SSL_VERIFYPEER", "SSL_VERIFYHOST", "NSAllowsArbitraryLoads"]
        guard let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
            return XCTFail("cannot list \(sources.path)")
        }
        var scanned = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            scanned += 1
            for pattern in patterns {
                XCTAssertFalse(text.contains(pattern), "\(file.lastPathComponent) mentions \(pattern)")
            }
        }
        XCTAssertGreaterThan(scanned, 100, "the scan read the project's sources")
    }
}
