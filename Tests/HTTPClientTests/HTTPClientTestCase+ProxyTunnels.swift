import EventLoopIO
import FeedServer
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// Checks the proxy tests share (SOCKS's, HTTPS proxies'): what a tunnel carries to the test's
/// server and what a proxy's refusal becomes, whichever proxy and protocol.
extension HTTPClientTestCase {
    /// Replaces the server with one over TLS, sends three `https` requests through `makeClient`'s
    /// client, and checks they went in one kept tunnel (`tunnels()` then names `expected(port)`)
    /// with one handshake with the origin; then that a certificate for another name fails
    /// against the origin's name (`localhost`), not the proxy's.
    func checkHTTPSTunnelsWithTheOriginsCertificateVerified(
        makeClient: (TLSConfiguration) throws -> HTTPClient, tunnels: () -> [String], expected: (UInt16) -> String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try TLSFixtures.skipUnlessTLSLoads()
        server.stop()
        server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        client = try makeClient(TLSFixtures.client)
        for _ in 0..<3 {
            let response = try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo"))).get()
            XCTAssertEqual(response.status, 200, file: file, line: line)
        }
        XCTAssertEqual(tunnels(), [expected(server.port)], file: file, line: line)
        XCTAssertEqual(server.tlsHandshakeCount, 1, "TLS to the origin inside one kept tunnel", file: file, line: line)

        server.stop()
        server = try FeedServer(configuration: .init(tls: TLSFixtures.server("other-name")))
        let result = try executeWithCompletion(HTTPClientRequest(url: URL(string: "https://localhost:\(server.port)/echo")!))
        guard case .failure(.tls(.hostNameMismatch(let host))) = result else { return XCTFail("\(result)", file: file, line: line) }
        XCTAssertEqual(host, "localhost", file: file, line: line)
    }

    /// An HTTP proxy given as a `scheme://` SOCKS proxy answers the negotiation as HTTP (a real
    /// socket sends `HTTP/1.1 400`): a request to `origin` through it fails as a bad response.
    func checkAnHTTPAnswerToTheNegotiationIsABadResponse(scheme: String, origin: String, makeClient: (String) throws -> HTTPClient,
                                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let impostor = try TCPSocket.listen()
        defer { impostor.close() }
        let answered = Thread {
            guard let peer = try? impostor.accept(timeout: .seconds(5)) else { return }
            defer { peer.close() }
            _ = try? peer.read(timeout: .seconds(5))
            try? peer.write(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8), timeout: .seconds(5))
            _ = try? peer.read(timeout: .seconds(5))
        }
        answered.start()
        client = try makeClient("\(scheme)://127.0.0.1:\(try impostor.localPort())")
        let result = try executeWithCompletion(HTTPClientRequest(url: URL(string: origin)!))
        guard case .failure(.badResponse) = result else { return XCTFail("\(result)", file: file, line: line) }
    }

    /// A request to a closed port on 127.0.0.1 through the test's client fails as the proxy at
    /// `proxyPort` refusing the tunnel with `code`.
    func checkAClosedPortIsARefusal(code: Int, proxyPort: UInt16, file: StaticString = #filePath, line: UInt = #line) throws {
        let closed = try TCPSocket.listen()
        let port = try closed.localPort()
        closed.close()
        let result = try executeWithCompletion(HTTPClientRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
        guard case .failure(.proxyRefused(code, let host, let refusedBy)) = result else { return XCTFail("\(result)", file: file, line: line) }
        XCTAssertEqual(host, "127.0.0.1", file: file, line: line)
        XCTAssertEqual(refusedBy, Int(proxyPort), file: file, line: line)
    }
}
