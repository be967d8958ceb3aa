import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

/// HTTP caching against nginx over TLS with its own `ETag` and `Last-Modified`, counting the
/// requests nginx logs: a fresh response sends nothing, a stale one a conditional request that
/// nginx answers with 304, which the caller sees as the stored 200.
final class HTTPCacheNginxTests: LeakCheckingTestCase {
    private var server: StockTLSServer?

    override func setUpWithError() throws {
        try super.setUpWithError()
        try TLSFixtures.skipUnlessTLSLoads()
        guard let server = try StockTLSServer.nginx(certificate: TLSFixtures.path("localhost.pem"), key: TLSFixtures.path("localhost.key")) else {
            throw XCTSkip("nginx is not installed (CI installs it)")
        }
        self.server = server
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func get(_ path: String, through transport: SocketTransport) throws -> Response {
        let port = try XCTUnwrap(server?.port)
        return try SessionTestSupport.send(URLRequest(url: URL(fixed: "https://localhost:\(port)\(path)")), through: transport)
    }

    private func logged(_ path: String) -> [String] {
        (server?.accessLog() ?? []).filter { $0.contains(" \(path) ") }
    }

    /// `path`'s log lines once there are `count` (or after a bounded wait): nginx logs a request
    /// after sending its response, so the last answer can arrive before its line is written. The
    /// lines of earlier requests on the connection are written before nginx reads the next.
    private func logged(_ path: String, atLeast count: Int) -> [String] {
        _ = waitUntil { self.logged(path).count >= count }
        return logged(path)
    }

    private func transport() -> SocketTransport {
        SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client),
                        session: SessionOptions(cookieStorage: nil, cache: HTTPCache(memoryCapacity: 1 << 20)))
    }

    func testAFreshResponseFromNginxIsAnsweredWithoutARequest() throws {
        let transport = transport()
        for _ in 0..<3 {
            let response = try get("/cached/file.txt", through: transport)
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.data.count, 2_048)
        }
        XCTAssertEqual(logged("/cached/file.txt", atLeast: 1).count, 1, "\(server?.accessLog() ?? [])")
    }

    func testAStaleResponseIsRevalidatedWithNginxsETagAndLastModified() throws {
        let transport = transport()
        let first = try get("/stale/file.txt", through: transport)
        let etag = try XCTUnwrap(first.headerValue("ETag"))
        let second = try get("/stale/file.txt", through: transport)
        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(second.data, first.data)
        XCTAssertEqual(logged("/stale/file.txt", atLeast: 2).map { $0.components(separatedBy: " ")[2] }, ["200", "304"])
        XCTAssertTrue(logged("/stale/file.txt").last?.contains(etag) == true, "If-None-Match carried nginx's ETag: \(etag) \(logged("/stale/file.txt"))")

        let dated = try get("/dated/file.txt", through: transport)
        let modified = try XCTUnwrap(dated.headerValue("Last-Modified"))
        XCTAssertEqual(try get("/dated/file.txt", through: transport).data.count, 2_048)
        XCTAssertEqual(logged("/dated/file.txt", atLeast: 2).map { $0.components(separatedBy: " ")[2] }, ["200", "304"])
        XCTAssertTrue(logged("/dated/file.txt").last?.hasSuffix("|" + modified) == true, "If-Modified-Since carried nginx's Last-Modified")
    }
}
