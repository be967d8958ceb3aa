import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import Networking
import TestSupport
import XCTest

/// `SocketTransport` over TLS against `FeedServer` serving the fixture `localhost`, trusting
/// the test CA: kept-alive connections, large bodies both ways, a resumed session.
final class SocketTransportTLSTests: SocketTransportTestCase {
    override var serverConfiguration: FeedServer.Configuration { FeedServer.Configuration(tls: TLSFixtures.server()) }

    override func setUpWithError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        try super.setUpWithError()
        transport = SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client))
    }

    private func secureRequest(_ path: String, method: String = "GET", body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body
        return request
    }

    func testSequentialRequestsShareOneKeptAliveConnection() throws {
        for _ in 0..<3 {
            let response = try send(secureRequest("echo")).1.get()
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.response?.url?.scheme, "https")
            XCTAssertEqual(try JSONDecoder().decode(Echo.self, from: response.data).path, "/echo")
        }
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(server.tlsHandshakeCount, 1)
        XCTAssertEqual(transport.idleConnectionCount, 1)
    }

    func testAMebibyteGoesUpAndFiveMillionBytesComeDown() throws {
        let upload = Data(BulkBytes.make(1_048_576))
        let echoed = try send(secureRequest("echo", method: "POST", body: upload)).1.get()
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: echoed.data) as? [String: Any])
        XCTAssertEqual((json["body"] as? String).flatMap { Data(base64Encoded: $0) }, upload)

        let download = try send(secureRequest("bytes/5000000"), wait: 30).1.get()
        XCTAssertEqual(download.data.count, 5_000_000)
        XCTAssertTrue(BulkBytes.equal(download.data, BulkBytes.counting(5_000_000)), "byte i is i % 256")
        XCTAssertEqual(server.connectionCount, 1, "both on one kept-alive connection")
    }

    /// A certificate from a CA the transport does not trust fails as URLSession's
    /// `.serverCertificateHasUnknownRoot`, each layer keeping the one below: the provider's
    /// error holds the transport's, which holds SystemTLS's `TLSFailure` and OpenSSL's reason.
    func testAnUntrustedCertificateKeepsItsCauseThroughEveryLayer() throws {
        transport = SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5),
                                                         tls: TLSConfiguration(trustRoots: .system)))
        let error = try failure(send(secureRequest("echo")).1)
        XCTAssertEqual(error.urlError?.code, .serverCertificateHasUnknownRoot, "\(error)")
        let transportError = try XCTUnwrap(error.underlyingError as? TransportError, "\(error)")
        guard case .tls(.untrustedChain(let reason)) = transportError else { return XCTFail("\(transportError)") }
        XCTAssertTrue(reason.isUnknownRoot, "\(reason)")
        XCTAssertEqual(transportError.underlyingError as? TLSFailure, .untrustedChain(reason))
        XCTAssertEqual(server.requestCount(path: "/echo"), 0, "nothing was sent")
    }

    /// A body delimited by the connection's end, cut by FeedServer after 1,200 of its 5,000 bytes
    /// without `close_notify`, fails as the one conversion says (the parser's `incompleteClose`,
    /// the client's `uncleanShutdown`, URLSession's lost connection with it underneath); the same
    /// body ended by `close_notify` is whole.
    func testACloseDelimitedBodyCutWithoutCloseNotifyIsALostConnectionWithTheCountUnderneath() throws {
        let whole = try send(secureRequest("until-close/5000")).1.get()
        XCTAssertEqual(whole.data, Data(repeating: UInt8(ascii: "u"), count: 5_000))
        let error = try failure(send(secureRequest("until-close/5000/1200")).1)
        XCTAssertTrue(error.isLostConnection, "\(error)")
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        let lost = try XCTUnwrap(error.underlyingError as? URLError, "\(error)")
        guard case .uncleanShutdown(let received)? = lost.errorUserInfo[NSUnderlyingErrorKey] as? HTTPClientError else {
            return XCTFail("the client's error is not underneath: \(lost.errorUserInfo)")
        }
        XCTAssertEqual(received, 1_200)
    }

    /// After the pool lets its connection go, the next one resumes the session the first brought.
    func testTheNextConnectionResumesTheSession() throws {
        XCTAssertEqual(try send(secureRequest("echo")).1.get().statusCode, 200)
        transport.close()
        XCTAssertEqual(try send(secureRequest("echo")).1.get().statusCode, 200)
        XCTAssertEqual(server.connectionCount, 2)
        XCTAssertEqual(server.resumedTLSHandshakeCount, 1)
    }
}
