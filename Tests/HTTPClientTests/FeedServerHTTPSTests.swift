import FeedServer
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// `https://` between the package's own client and its own server: `HTTPClient` trusting the
/// test CA, `FeedServer` serving the fixture `localhost`, both on the loops.
final class FeedServerHTTPSTests: HTTPClientTestCase {
    override func setUpWithError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client))
    }

    private func get(_ path: String, headers: [String: String] = [:]) throws -> Result<HTTPClientResponse, HTTPClientError> {
        try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent(path), headers: headers))
    }

    func testSequentialRequestsShareOneKeptAliveConnection() throws {
        for index in 0..<5 {
            let response = try get("echo", headers: ["X-Index": "\(index)"]).get()
            XCTAssertEqual(response.status, 200)
            let echoed = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            XCTAssertEqual((echoed?["headers"] as? [String: String])?["X-Index"], "\(index)")
        }
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(server.tlsHandshakeCount, 1)
        XCTAssertEqual(client.idleConnectionCount, 1)
    }

    func testAMebibyteUploadIsEchoedBack() throws {
        let body = Data(BulkBytes.make(1_048_576))
        let response = try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo"), method: "POST",
                                                                   body: .bytes(body))).get()
        XCTAssertEqual(response.status, 200)
        let echoed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual((echoed["body"] as? String).flatMap { Data(base64Encoded: $0) }, body)
    }

    func testFiveMillionBytesComeDownIntact() throws {
        let response = try get("bytes/5000000").get()
        XCTAssertEqual(response.body.count, 5_000_000)
        XCTAssertTrue(BulkBytes.equal(response.body, BulkBytes.counting(5_000_000)), "byte i is i % 256")
    }

    /// The server ends the first connection (`Connection: close`); the second offers the session
    /// the first brought, and the server resumes it.
    func testASecondConnectionResumesTheSession() throws {
        XCTAssertEqual(try get("echo", headers: ["Connection": "close"]).get().status, 200)
        XCTAssertEqual(try get("echo").get().status, 200)
        XCTAssertEqual(server.connectionCount, 2)
        XCTAssertEqual(server.tlsHandshakeCount, 2)
        XCTAssertEqual(server.resumedTLSHandshakeCount, 1)
    }

    /// The fixture is signed by the test CA, which the system's trust store does not hold.
    func testTheSystemsTrustStoreRefusesTheTestCertificate() throws {
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5)))
        guard case .failure(.tls(.untrustedChain(let reason))) = try executeWithCompletion(HTTPClientRequest(url: server.baseURL)) else {
            return XCTFail("the test CA was trusted")
        }
        XCTAssertTrue(reason.isUnknownRoot, "\(reason)")
        XCTAssertEqual(server.tlsHandshakeCount, 0)
    }

    /// A body delimited by the connection's end is whole after FeedServer's `close_notify`, and
    /// refused when the connection is cut without one (RFC 9112 §9.8).
    func testACloseDelimitedBodyIsWholeOnlyAfterCloseNotify() throws {
        let whole = try get("until-close/5000").get()
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, [UInt8](repeating: UInt8(ascii: "u"), count: 5_000))
        guard case .failure(.uncleanShutdown(let received)) = try get("until-close/5000/1200") else {
            return XCTFail("a cut close-delimited body was taken as whole")
        }
        XCTAssertEqual(received, 1_200)
    }

    /// Cuts without `close_notify`, after the head (`/half`) and inside a record (`/cut-record`):
    /// the connection was lost.
    func testACutWithoutCloseNotifyIsALostConnection() throws {
        for path in ["half", "cut-record"] {
            guard case .failure(.connectionLost) = try get(path) else { return XCTFail("\(path) was not a lost connection") }
        }
    }
}
