import Foundation
import HTTPClient
import TestSupport
import XCTest

/// A test case against stock TLS servers it starts: OpenSSL's `s_server` as a terminal the test
/// types the answer into (`terminal()`), showing a status page naming each connection's session
/// (`statusServer`), or serving files that hold whole responses (`fileServer`); each is stopped
/// in `tearDown`. `client` trusts the fixtures' CA. Skips, saying why, where `openssl`, `stdbuf`
/// or the system's TLS library is missing.
class StockTLSTestCase: XCTestCase {
    private var terminals: [OpenSSLTerminalServer] = []
    private var servers: [StockTLSServer] = []
    let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(10), tls: TLSFixtures.client))

    override func setUpWithError() throws {
        try super.setUpWithError()
        try TLSFixtures.skipUnlessTLSLoads()
    }

    override func tearDown() {
        client.closeIdleConnections()
        terminals.forEach { $0.stop() }
        terminals = []
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    /// `s_server` with localhost's certificate, answering what the test types.
    func terminal() throws -> OpenSSLTerminalServer {
        guard let server = try OpenSSLTerminalServer.start(certificate: TLSFixtures.path("localhost.pem"),
                                                           key: TLSFixtures.path("localhost.key")) else {
            throw XCTSkip("no openssl or no stdbuf command installed")
        }
        terminals.append(server)
        return server
    }

    /// `s_server -www` with the fixture `name` and `options`: each connection gets a status page
    /// naming its session (`New` or `Reused`).
    func statusServer(_ name: String, options: [String] = []) throws -> StockTLSServer {
        guard let server = try StockTLSServer.opensslServer(certificate: TLSFixtures.path("\(name).pem"),
                                                            key: TLSFixtures.path("\(name).key"), options: options) else {
            throw XCTSkip("no openssl command installed")
        }
        servers.append(server)
        return server
    }

    /// `s_server -HTTP` with localhost's certificate, answering `GET /name` with the bytes given,
    /// then its `close_notify`.
    func fileServer(_ files: [String: [UInt8]]) throws -> StockTLSServer {
        guard let server = try StockTLSServer.opensslFileServer(certificate: TLSFixtures.path("localhost.pem"),
                                                                key: TLSFixtures.path("localhost.key"), files: files) else {
            throw XCTSkip("no openssl command installed")
        }
        servers.append(server)
        return server
    }
}
