import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// `NetworkProvider` over `https://` against `FeedServer` serving TLS: the classified pipeline
/// through `SocketTransport` and through the default transport (which sends `https` there
/// when TLS loads), trusting the test CA.
final class HTTPSProviderTests: FeedServerTestCase {
    override var serverConfiguration: FeedServer.Configuration { .init(tls: TLSFixtures.server()) }

    override func setUpWithError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        try super.setUpWithError()
    }

    private func socketTransport() -> SocketTransport {
        SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client))
    }

    func testTheClassifiedPipelineOverHTTPS() throws {
        let transports: [(String, any HTTPTransport)] = [
            ("SocketTransport", socketTransport()),
            ("DefaultTransport", DefaultTransport(socketTransport: socketTransport())),
        ]
        for (name, transport) in transports {
            let provider = NetworkProvider<ServerRoute>(transport: transport)
            let echo = try XCTUnwrap(answer(of: provider.rx.request(route("echo")).filterSuccessfulStatusCodes().classifyErrors().map(Echo.self), timeout: 20), name).get()
            XCTAssertEqual(echo.method, "GET", name)
            XCTAssertEqual(echo.path, "/echo", name)
        }
        XCTAssertEqual(server.requestCount(path: "/echo"), 2)
        XCTAssertEqual(server.tlsHandshakeCount, 2, "one connection per transport")
    }

    /// A REST error over https is classified as over http: status and the server's code.
    func testARESTErrorOverHTTPSIsClassified() throws {
        let provider = NetworkProvider<ServerRoute>(transport: socketTransport())
        let result = answer(of: provider.rx.request(route("status/404")).filterSuccessfulStatusCodes().classifyErrors(), timeout: 20)
        guard case .failure(APIError.restError(_, let status, let code))? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(status, 404)
        XCTAssertEqual(code, "E404")
    }

    func testAMebibyteUploadThroughTheProvider() throws {
        let upload = Data(BulkBytes.make(1_048_576))
        let provider = NetworkProvider<ServerRoute>(transport: socketTransport())
        let target = route("echo", method: .post, task: .requestData(upload))
        let response = try XCTUnwrap(answer(of: provider.rx.request(target).filterSuccessfulStatusCodes(), timeout: 20)).get()
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        XCTAssertEqual((json["body"] as? String).flatMap { Data(base64Encoded: $0) }, upload)
    }
}
