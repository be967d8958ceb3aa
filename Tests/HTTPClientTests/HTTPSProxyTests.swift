import FeedServer
import EventLoopIO
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// HTTPS proxies (`https://` proxy URLs, as curl reads them) against a real one: tinyproxy behind
/// stunnel (Debian's packages), which speaks TLS with the test CA's certificates. Plain `http`
/// goes in absolute form inside TLS to the proxy; `https` through `CONNECT` inside it, with a
/// second TLS, to the origin, inside that; the proxy's certificate is verified against its own
/// name, the origin's against the origin's. Skipped, saying why, where tinyproxy or stunnel is
/// not installed.
final class HTTPSProxyTests: HTTPClientTestCase {
    private var proxy: TinyProxy?
    private var front: Stunnel?

    override func tearDown() {
        front?.stop()
        proxy?.stop()
        front = nil
        proxy = nil
        super.tearDown()
    }

    /// tinyproxy with stunnel in front of it serving `certificate`.
    private func startProxy(connectPorts: [UInt16] = [], credentials: (user: String, password: String)? = nil,
                            certificate: String = "localhost") throws -> (TinyProxy, Stunnel) {
        try TLSFixtures.skipUnlessTLSLoads()
        guard let started = try TinyProxy.start(connectPorts: connectPorts, credentials: credentials) else {
            throw XCTSkip("tinyproxy is not installed (Debian's package tinyproxy; .ci/run installs it)")
        }
        proxy = started
        guard let tls = try Stunnel.start(inFrontOf: started.port, certificate: certificate) else {
            throw XCTSkip("stunnel is not installed (Debian's package stunnel4; .ci/run installs it)")
        }
        front = tls
        return (started, tls)
    }

    private func client(through url: String, tls: TLSConfiguration = TLSFixtures.client) throws -> HTTPClient {
        HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: tls,
                                        proxy: .http(try XCTUnwrap(ProxyEndpoint(url)))))
    }

    func testPlainHTTPGoesInAbsoluteFormInsideTLSToTheProxy() throws {
        let (proxy, front) = try startProxy(credentials: ("user", "s3cret"))
        client = try client(through: front.url(user: "user", password: "s3cret"))
        for _ in 0..<2 {
            let response = try executeWithCompletion(HTTPClientRequest(url: url("echo"))).get()
            XCTAssertEqual(response.status, 200)
            let headers = try echoedHeaders(response)
            XCTAssertNotNil(header("Via", in: headers)?.range(of: "tinyproxy"), "the proxy forwarded it")
            XCTAssertNil(header("Proxy-Authorization", in: headers), "the proxy took its credentials")
        }
        XCTAssertEqual(proxy.requests(), Array(repeating: "GET http://127.0.0.1:\(server.port)/echo HTTP/1.1", count: 2))
        // tinyproxy closes each connection after its answer: the second resumed the first's TLS.
        XCTAssertEqual(front.resumptions(), [false, true])
    }

    /// A second tunnel (the first closed after its answer) resumes the TLS session with the proxy,
    /// and, inside it, the one with the origin.
    func testASecondTunnelResumesBothTLSSessions() throws {
        server.stop()
        server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        let (proxy, front) = try startProxy(connectPorts: [server.port])
        client = try client(through: front.url())
        var resumed: [Bool] = []
        for _ in 0..<2 {
            let response = try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo"),
                                                                       headers: ["Connection": "close"])).get()
            XCTAssertEqual(response.status, 200)
            resumed.append(try XCTUnwrap(response.timings.tls).resumedSession)
        }
        XCTAssertEqual(proxy.requests().count, 2, "two tunnels")
        XCTAssertEqual(front.resumptions(), [false, true], "the proxy's TLS")
        XCTAssertEqual(resumed, [false, true], "the origin's TLS")
    }

    /// Plain `http` tunnelled (`tunnelsPlainHTTPThroughProxy`) has one TLS, the proxy's: a second
    /// tunnel resumes it, as a second forwarded connection does.
    func testASecondPlainTunnelResumesTheProxysTLSSession() throws {
        let (proxy, front) = try startProxy(connectPorts: [server.port])
        var configuration = HTTPClient.Configuration(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client,
                                                     proxy: .http(try XCTUnwrap(ProxyEndpoint(front.url()))))
        configuration.tunnelsPlainHTTPThroughProxy = true
        client = HTTPClient(configuration: configuration)
        for _ in 0..<2 {
            let response = try executeWithCompletion(HTTPClientRequest(url: url("echo"), headers: ["Connection": "close"])).get()
            XCTAssertEqual(response.status, 200)
        }
        XCTAssertEqual(proxy.requests(), Array(repeating: "CONNECT 127.0.0.1:\(server.port) HTTP/1.1", count: 2), "two tunnels")
        XCTAssertEqual(front.resumptions(), [false, true], "the proxy's TLS")
    }

    /// One kept tunnel, the origin's TLS inside the proxy's, verified against the origin's name.
    func testHTTPSTunnelsInsideTLSToTheProxyWithTheOriginsCertificateVerified() throws {
        let (proxy, front) = try startProxy()
        try checkHTTPSTunnelsWithTheOriginsCertificateVerified(
            makeClient: { try client(through: front.url(), tls: $0) }, tunnels: proxy.requests,
            expected: { "CONNECT localhost:\($0) HTTP/1.1" })
    }

    /// `https_proxy=https://...` as curl reads it: an `https` origin through a tunnel inside TLS
    /// to the proxy, a host `no_proxy` covers direct.
    func testTheEnvironmentsHTTPSProxyCarriesHTTPSRequests() throws {
        server.stop()
        server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        let (proxy, front) = try startProxy(connectPorts: [server.port])
        let environment = ProxyEnvironment(["https_proxy": front.url(), "no_proxy": "127.0.0.1"])
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), tls: TLSFixtures.client, proxy: .environment(environment)))
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo"))).get().status, 200)
        XCTAssertEqual(proxy.requests(), ["CONNECT localhost:\(server.port) HTTP/1.1"])
        let direct = try XCTUnwrap(URL(string: "https://127.0.0.1:\(server.port)/echo"))
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: direct)).get().status, 200)
        XCTAssertEqual(proxy.requests().count, 1, "no_proxy covers 127.0.0.1")
    }

    func testTheProxysCertificateIsVerifiedAgainstTheProxysName() throws {
        let (proxy, front) = try startProxy(certificate: "other-name")
        client = try client(through: front.url())
        let result = try executeWithCompletion(HTTPClientRequest(url: url("echo")))
        guard case .failure(.tls(.hostNameMismatch(let host))) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(host, "localhost", "the proxy's name, not the origin's (127.0.0.1)")
        XCTAssertEqual(proxy.requests(), [], "nothing was sent to a proxy that is not who it says")
        XCTAssertEqual(server.connectionCount, 0)

        // A proxy whose chain the client does not trust (the system's roots, not the test CA).
        client = try client(through: front.url(), tls: TLSConfiguration(trustRoots: .pemFile(TLSFixtures.path("self-signed.pem"))))
        let untrusted = try executeWithCompletion(HTTPClientRequest(url: url("echo")))
        guard case .failure(.tls(.untrustedChain)) = untrusted else { return XCTFail("\(untrusted)") }
    }

    func testARefusedCONNECTThroughAnHTTPSProxyIsATypedRefusal() throws {
        server.stop()
        server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        let (_, front) = try startProxy(connectPorts: [server.port], credentials: ("user", "s3cret"))
        client = try client(through: front.url())
        let result = try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo")))
        guard case .failure(.proxyRefused(407, let host, let port)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(host, "localhost")
        XCTAssertEqual(port, Int(front.port))
        XCTAssertEqual(server.connectionCount, 0, "nothing reached the origin")

        client = try client(through: front.url(user: "user", password: "s3cret"))
        XCTAssertEqual(try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo"))).get().status, 200)
    }
}
