import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
import Networking
import TestSupport
import XCTest

/// Redirects: followed for `http://`, bounded, method rewritten as browsers and URLSession do.
final class SocketTransportRedirectTests: SocketTransportTestCase {
    private static func redirect(_ status: Int, to location: String) -> [UInt8] {
        Array("HTTP/1.1 \(status) Moved\r\nLocation: \(location)\r\nContent-Length: 3\r\n\r\nbye".utf8)
    }

    private static func ok(_ head: HTTPRequestHead) -> [UInt8] {
        let body = "\(head.method) \(head.target)"
        return Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    func testEachRedirectStatusIsFollowedOnTheKeptConnection() throws {
        for status in [301, 302, 303, 307, 308] {
            let scripted = try ScriptedHTTPServer { _, _, head in
                head.path == "/start" ? .respond(Self.redirect(status, to: "/end?from=\(status)")) : .respond(Self.ok(head))
            }
            defer { scripted.stop() }
            let response = try send(URLRequest(url: scripted.url("/start"))).1.get()
            XCTAssertEqual(response.statusCode, 200, "\(status)")
            XCTAssertEqual(String(decoding: response.data, as: UTF8.self), "GET /end?from=\(status)")
            XCTAssertEqual(response.response?.url?.path, "/end")
            XCTAssertEqual(response.request?.url?.path, "/start", "the request is the one sent")
            XCTAssertEqual(scripted.connectionCount, 1, "\(status)")
        }
    }

    func testSeeOtherTurnsAPostIntoAGetWithoutBody() throws {
        let scripted = try ScriptedHTTPServer { _, _, head in
            head.path == "/form" ? .respond(Self.redirect(303, to: "/result")) : .respond(Self.ok(head))
        }
        defer { scripted.stop() }
        var post = URLRequest(url: scripted.url("/form"))
        post.httpMethod = "POST"
        post.httpBody = Data("a=1".utf8)
        XCTAssertEqual(String(decoding: try send(post).1.get().data, as: UTF8.self), "GET /result")
        XCTAssertEqual(scripted.requests.last?.body, [])
    }

    func testTemporaryRedirectRepeatsMethodAndBody() throws {
        let scripted = try ScriptedHTTPServer { _, _, head in
            head.path == "/old" ? .respond(Self.redirect(307, to: "/new")) : .respond(Self.ok(head))
        }
        defer { scripted.stop() }
        var post = URLRequest(url: scripted.url("/old"))
        post.httpMethod = "POST"
        post.httpBody = Data("a=1".utf8)
        XCTAssertEqual(String(decoding: try send(post).1.get().data, as: UTF8.self), "POST /new")
        XCTAssertEqual(scripted.requests.map(\.body), [Array("a=1".utf8), Array("a=1".utf8)])
    }

    func testRedirectLoopEndsWithTooManyRedirects() throws {
        transport = SocketTransport(configuration: .init(maximumRedirects: 3))
        let scripted = try ScriptedHTTPServer { _, _, _ in .respond(Self.redirect(302, to: "/loop")) }
        defer { scripted.stop() }
        let error = try failure(send(URLRequest(url: scripted.url("/loop"))).1)
        XCTAssertEqual(error.urlError?.code, .httpTooManyRedirects, "\(error)")
        XCTAssertEqual(error.response?.statusCode, 302)
        XCTAssertEqual(scripted.requests.count, 4, "the request and three redirects")
    }

    func testRedirectToAnotherSchemeIsReturnedAsTheResponse() throws {
        let scripted = try ScriptedHTTPServer { _, _, _ in .respond(Self.redirect(301, to: "ftp://127.0.0.1:1/file")) }
        defer { scripted.stop() }
        let response = try send(URLRequest(url: scripted.url("/plain"))).1.get()
        XCTAssertEqual(response.statusCode, 301)
        XCTAssertEqual(response.headerValue("Location"), "ftp://127.0.0.1:1/file")
        XCTAssertEqual(scripted.requests.count, 1)
    }

    /// A redirect from `http` to `https` is followed through the transport's own TLS (the
    /// stock `s_server`, trusted through the test CA), credentials dropped on the way.
    func testARedirectFromHTTPToHTTPSIsFollowedOverTLS() throws {
        guard (try? TLSLibrary.load()) != nil else { throw XCTSkip("no TLS library loads here") }
        guard let secure = try StockTLSServer.opensslServer(certificate: TLSFixtures.path("localhost.pem"),
                                                            key: TLSFixtures.path("localhost.key")) else {
            throw XCTSkip("no openssl command installed")
        }
        defer { secure.stop() }
        let scripted = try ScriptedHTTPServer { _, _, _ in .respond(Self.redirect(302, to: "https://localhost:\(secure.port)/")) }
        defer { scripted.stop() }
        transport = SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5),
                                                         tls: TLSConfiguration(trustRoots: .pemFile(TLSFixtures.caCertificate))))
        var request = URLRequest(url: scripted.url("/plain"))
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        let response = try send(request).1.get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.response?.url?.absoluteString, "https://localhost:\(secure.port)/")
        XCTAssertTrue(String(decoding: response.data, as: UTF8.self).contains("TLSv1.3"), "the page s_server makes over TLS")
        XCTAssertEqual(scripted.requests.count, 1)
    }

    func testRedirectToAnotherHostUsesThatHostsPool() throws {
        let target = try ScriptedHTTPServer { _, _, head in .respond(Self.ok(head)) }
        defer { target.stop() }
        let origin = try ScriptedHTTPServer { _, _, _ in .respond(Self.redirect(302, to: target.url("/there").absoluteString)) }
        defer { origin.stop() }
        var request = URLRequest(url: origin.url("/here"))
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        XCTAssertEqual(String(decoding: try send(request).1.get().data, as: UTF8.self), "GET /there")
        XCTAssertEqual(origin.requests.first?.head.headers["Authorization"], "Bearer secret")
        XCTAssertNil(target.requests.first?.head.headers["Authorization"], "credentials stay with their origin")
        XCTAssertEqual(target.requests.first?.head.headers["Host"], "127.0.0.1:\(target.port)")
        XCTAssertEqual(transport.idleConnectionCount, 2)
    }

    func testOverallDeadlineCoversTheWholeRedirectChain() throws {
        transport = SocketTransport(configuration: .init(overallDeadline: .milliseconds(500)))
        let scripted = try ScriptedHTTPServer { _, _, _ in
            Thread.sleep(forTimeInterval: 0.15)
            return .respond(Self.redirect(302, to: "/slow"))
        }
        defer { scripted.stop() }
        let error = try failure(send(URLRequest(url: scripted.url("/slow"))).1)
        XCTAssertEqual(error.urlError?.code, .timedOut, "\(error)")
        XCTAssertLessThan(scripted.requests.count, 10)
        XCTAssertEqual(transport.idleConnectionCount, 0, "a connection the deadline interrupted is not pooled")
    }
}
