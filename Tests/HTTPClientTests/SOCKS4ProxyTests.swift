import EventLoopIO
import FeedServer
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// `HTTPClient.Configuration.proxy` with a SOCKS4 proxy (`socks4://`, as curl reads it), against
/// Dante (Debian's `dante-server`, started by each test on a port of its own): the origin's name
/// resolved here to an IPv4 address, plain `http` and `https` both tunnelled, the latter with TLS
/// to the origin inside, and the proxy's refusal as a typed error with its reply code. Skipped,
/// saying why, where Dante is not installed.
final class SOCKS4ProxyTests: HTTPClientTestCase {
    private var proxy: Dante?

    override func tearDown() {
        proxy?.stop()
        proxy = nil
        super.tearDown()
    }

    private func startProxy() throws -> Dante {
        guard let started = try Dante.start() else {
            throw XCTSkip("Dante is not installed (Debian's package dante-server; .ci/run installs it)")
        }
        proxy = started
        return started
    }

    private func client(through proxy: String, tls: TLSConfiguration = TLSConfiguration()) throws -> HTTPClient {
        HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: tls,
                                        proxy: .http(try XCTUnwrap(ProxyEndpoint(proxy)))))
    }

    func testPlainHTTPThroughSOCKS4GoesToTheResolvedIPv4AddressOnOneKeptTunnel() throws {
        let proxy = try startProxy()
        client = try client(through: proxy.url("socks4", user: "alice"))
        // `localhost` may resolve to ::1 first; SOCKS4 carries IPv4 only, and the server listens
        // on 127.0.0.1.
        for _ in 0..<3 {
            let response = try executeWithCompletion(HTTPClientRequest(url: URL(string: "http://localhost:\(server.port)/echo")!)).get()
            XCTAssertEqual(response.status, 200)
            let echoed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            let headers = try XCTUnwrap(echoed["headers"] as? [String: String])
            XCTAssertEqual(headers.first { $0.key.caseInsensitiveCompare("Host") == .orderedSame }?.value, "localhost:\(server.port)",
                           "origin form through the tunnel, the origin's Host")
        }
        XCTAssertEqual(proxy.tunnels(), ["127.0.0.1:\(server.port)"], "the address went to the proxy; one tunnel, kept alive")
        XCTAssertEqual(server.connectionCount, 1)
    }

    /// A name whose addresses start with IPv6 (as `localhost` does on many machines): the first
    /// IPv4 one goes to the proxy, the only kind SOCKS4 carries.
    func testANameResolvedToIPv6FirstSendsItsFirstIPv4Address() throws {
        let proxy = try startProxy()
        let resolver = HostResolver(
            literal: { host, port in try? SocketAddress.resolve(host: host, port: port, numericOnly: true) },
            lookUp: { _, port throws(SocketError) in
                try SocketAddress.resolve(host: "::1", port: port, numericOnly: true)
                    + SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true)
            }
        )
        let group = try EventLoopGroup(count: 1, label: "SOCKS4ProxyTests.dual")
        let dual = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5),
                                                   proxy: .http(try XCTUnwrap(ProxyEndpoint(proxy.url("socks4"))))),
                              loops: group, resolver: resolver)
        let (result, _) = try executeAsync(HTTPClientRequest(url: URL(string: "http://dual.test:\(server.port)/echo")!), on: dual)
        XCTAssertEqual(try result.get().status, 200)
        XCTAssertEqual(proxy.tunnels(), ["127.0.0.1:\(server.port)"])
        dual.closeIdleConnections()
    }

    func testHTTPSTunnelsThroughSOCKS4WithTheOriginsCertificateVerified() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let proxy = try startProxy()
        // The server's name, `localhost`, is resolved here: the proxy is told its IPv4 address.
        try checkHTTPSTunnelsWithTheOriginsCertificateVerified(
            makeClient: { try client(through: proxy.url("socks4"), tls: $0) }, tunnels: proxy.tunnels, expected: { "127.0.0.1:\($0)" })
    }

    func testAConnectionTheProxyCannotMakeIsARefusalWithItsReplyCode() throws {
        let proxy = try startProxy()
        client = try client(through: proxy.url("socks4"))
        // SOCKS4's code 91: request rejected or failed (the origin's port is closed).
        try checkAClosedPortIsARefusal(code: 91, proxyPort: proxy.port)
    }

    func testAnAnswerThatIsNoSOCKS4ReplyIsABadResponse() throws {
        // The request answered as HTTP (the origin an address: nothing to look up).
        try checkAnHTTPAnswerToTheNegotiationIsABadResponse(scheme: "socks4", origin: "http://127.0.0.1:9/") {
            try client(through: $0)
        }
    }

    func testAnIPv6OriginCannotGoThroughSOCKS4() throws {
        let proxy = try startProxy()
        client = try client(through: proxy.url("socks4"))
        let result = try executeWithCompletion(HTTPClientRequest(url: URL(string: "http://[::1]:\(server.port)/")!))
        guard case .failure(.cannotConnect(_, _, let errno)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(errno, EAFNOSUPPORT)
        XCTAssertEqual(proxy.tunnels(), [], "nothing was asked of the proxy")
    }
}
