import EventLoopIO
import FeedServer
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// `HTTPClient.Configuration.proxy` with a SOCKS5 proxy, against microsocks (Debian's package,
/// started by each test on a port of its own): `socks5h://` names the origin to the proxy,
/// `socks5://` resolves it here and sends its address; plain `http` and `https` both tunnel, the
/// latter with TLS to the origin inside; RFC 1929's credentials; the proxy's refusals as typed
/// errors. Skipped, saying why, where microsocks is not installed.
final class SOCKSProxyTests: HTTPClientTestCase {
    private var proxy: MicroSocks?

    override func tearDown() {
        proxy?.stop()
        proxy = nil
        super.tearDown()
    }

    private func startProxy(credentials: (user: String, password: String)? = nil) throws -> MicroSocks {
        guard let started = try MicroSocks.start(credentials: credentials) else {
            throw XCTSkip("microsocks is not installed (Debian's package microsocks; .ci/run installs it)")
        }
        proxy = started
        return started
    }

    private func client(through proxy: String, tls: TLSConfiguration = TLSConfiguration(),
                        connectTimeout: Duration = .seconds(5)) throws -> HTTPClient {
        HTTPClient(configuration: .init(connectTimeout: connectTimeout, idleTimeout: .seconds(5), tls: tls,
                                        proxy: .http(try XCTUnwrap(ProxyEndpoint(proxy)))))
    }

    private func echoedHost(_ response: HTTPClientResponse) throws -> String? {
        let echoed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let headers = try XCTUnwrap(echoed["headers"] as? [String: String])
        return headers.first { $0.key.caseInsensitiveCompare("Host") == .orderedSame }?.value
    }

    func testPlainHTTPThroughSOCKS5hNamesTheOriginToTheProxyOnOneKeptTunnel() throws {
        let proxy = try startProxy()
        client = try client(through: proxy.url("socks5h"))
        for _ in 0..<3 {
            let response = try executeWithCompletion(HTTPClientRequest(url: URL(string: "http://localhost:\(server.port)/echo")!)).get()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(try echoedHost(response), "localhost:\(server.port)", "origin form through the tunnel, the origin's Host")
        }
        XCTAssertEqual(proxy.tunnels(), ["localhost:\(server.port)"], "the name went to the proxy; one tunnel, kept alive")
        XCTAssertEqual(server.connectionCount, 1)
    }

    func testSOCKS5ResolvesTheNameHereAndSendsTheAddress() throws {
        let first = try SocketAddress.resolve(host: "localhost", port: server.port).first
        guard first?.family == (try SocketAddress.resolve(host: "127.0.0.1", port: 1, numericOnly: true)).first?.family else {
            throw XCTSkip("localhost is not 127.0.0.1 first here, and the test server listens on 127.0.0.1 only")
        }
        let proxy = try startProxy()
        client = try client(through: proxy.url("socks5"))
        let response = try executeWithCompletion(HTTPClientRequest(url: URL(string: "http://localhost:\(server.port)/echo")!)).get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try echoedHost(response), "localhost:\(server.port)")
        XCTAssertEqual(proxy.tunnels(), ["127.0.0.1:\(server.port)"], "the proxy got the address, not the name")
    }

    /// A host with a 64-character label: glibc's resolver refuses it before sending any query, so
    /// this stays off the network (as `HTTPClientErrorTests` does).
    func testAnOriginNameThatCannotResolveHereIsCannotFindHostNamingTheOrigin() throws {
        let proxy = try startProxy()
        client = try client(through: proxy.url("socks5"))
        let host = String(repeating: "a", count: 64) + ".invalid"
        let result = try executeWithCompletion(HTTPClientRequest(url: URL(string: "http://\(host)/")!))
        guard case .failure(.cannotFindHost(let name, _)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(name, host, "the origin's name, not the proxy's")
        XCTAssertEqual(proxy.tunnels(), [], "no CONNECT went out")
    }

    /// The request gives up waiting for a connection at the connect timeout either way; what is
    /// checked is the connection's own opener: it gives the lookup as long again, then fails, so
    /// the lookup's late answer opens no tunnel (without the bound it would, and park it).
    func testAnOriginLookupThatHangsEndsTheConnectWithinItsTimeout() throws {
        let proxy = try startProxy()
        let lookups = Recorder<String>()
        let resolver = HostResolver(
            literal: { host, port in try? SocketAddress.resolve(host: host, port: port, numericOnly: true) },
            lookUp: { host, port throws(SocketError) in
                Thread.sleep(forTimeInterval: 1)  // a resolver that answers late (bounded)
                defer { lookups.append(host) }
                return try SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true)
            }
        )
        let group = try EventLoopGroup(count: 1, label: "SOCKSProxyTests.lookup")
        let slow = HTTPClient(configuration: .init(connectTimeout: .milliseconds(200), idleTimeout: .seconds(5),
                                                   proxy: .http(try XCTUnwrap(ProxyEndpoint(proxy.url("socks5"))))),
                              loops: group, resolver: resolver)
        let (result, _) = try executeAsync(HTTPClientRequest(url: URL(string: "http://slow-name.test:\(server.port)/echo")!), on: slow)
        guard case .failure(.timedOut(.connect, _, _, _)) = result else { return XCTFail("\(result)") }
        XCTAssertTrue(waitUntil(timeout: 5) { lookups.values == ["slow-name.test"] }, "the lookup answered")
        XCTAssertFalse(waitUntil(timeout: 1) { !proxy.tunnels().isEmpty }, "its answer came after the opener gave up: no tunnel")
        XCTAssertEqual(server.connectionCount, 0)
        XCTAssertEqual(slow.idleConnectionCount, 0)
    }

    func testHTTPSTunnelsThroughSOCKS5WithTheOriginsCertificateVerified() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let proxy = try startProxy()
        try checkHTTPSTunnelsWithTheOriginsCertificateVerified(
            makeClient: { try client(through: proxy.url("socks5h"), tls: $0) }, tunnels: proxy.tunnels, expected: { "localhost:\($0)" })
    }

    func testCredentialsGoAsRFC1929AndMissingOrWrongOnesAreA407Refusal() throws {
        let proxy = try startProxy(credentials: ("user", "s3cret"))
        client = try client(through: proxy.url("socks5h"))
        let missing = try executeWithCompletion(HTTPClientRequest(url: url("echo")))
        guard case .failure(.proxyRefused(407, let host, let port)) = missing else { return XCTFail("\(missing)") }
        XCTAssertEqual(host, "127.0.0.1")
        XCTAssertEqual(port, Int(proxy.port))

        client = try client(through: proxy.url("socks5h", user: "user", password: "wrong"))
        let wrong = try executeWithCompletion(HTTPClientRequest(url: url("echo")))
        guard case .failure(.proxyRefused(407, _, _)) = wrong else { return XCTFail("\(wrong)") }
        XCTAssertEqual(server.connectionCount, 0, "nothing reached the origin")

        client = try client(through: proxy.url("socks5h", user: "user", password: "s3cret"))
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200)
        XCTAssertEqual(proxy.tunnels(), ["127.0.0.1:\(server.port)"])
    }

    /// curl checks RFC 1929's lengths only once the proxy asks for the credentials: a proxy that
    /// needs none carries the request whatever the URL's user info holds.
    func testCredentialsRFC1929CannotCarryMatterOnlyToAProxyThatAsksForThem() throws {
        let proxy = try startProxy()
        for user in [String(repeating: "u", count: 256), ""] {
            client = try client(through: proxy.url("socks5h", user: user, password: "p"))
            XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get().status, 200, "a user of \(user.count) bytes")
        }
        XCTAssertEqual(proxy.tunnels().count, 2)
    }

    func testAConnectionTheProxyCannotMakeIsARefusalWithItsReplyCode() throws {
        let proxy = try startProxy()
        client = try client(through: proxy.url("socks5"))
        // RFC 1928's code 5: connection refused (the origin's port is closed).
        try checkAClosedPortIsARefusal(code: 5, proxyPort: proxy.port)
    }

    func testAnAnswerThatIsNoSOCKS5IsABadResponse() throws {
        // The greeting answered as HTTP.
        try checkAnHTTPAnswerToTheNegotiationIsABadResponse(scheme: "socks5h", origin: "http://origin.test/") {
            try client(through: $0)
        }
    }

    func testAProxyThatNeverAnswersTimesOutWithinTheConnectTimeout() throws {
        // A listener nobody accepts from: the kernel completes the connect, nothing ever answers.
        let silent = try TCPSocket.listen()
        defer { silent.close() }
        client = try client(through: "socks5h://127.0.0.1:\(try silent.localPort())", connectTimeout: .milliseconds(300))
        let result = try executeWithCompletion(HTTPClientRequest(url: URL(string: "http://origin.test/")!))
        guard case .failure(.timedOut(.connect, _, _, _)) = result else { return XCTFail("\(result)") }
        let accepted = try XCTUnwrap(try silent.accept(timeout: .seconds(2)))
        defer { accepted.close() }
        XCTAssertEqual(try accepted.read(timeout: .seconds(5)), [5, 1, 0], "the greeting, then the client's end")
    }
}
