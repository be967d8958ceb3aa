import EventLoopIO
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// What `HTTPClient` writes for a request, read as raw bytes by a listener on a real socket (the
/// origin, or an HTTP proxy that answers `CONNECT` and then reads what the tunnel carries): no
/// caller input splits a line or the request line, the request-target's forms (RFC 9112 §3.2),
/// `Host`, the body's framing (RFC 9110 §8.6), and which fields a tunnel's origin never sees.
final class RequestEncodingRulesTests: XCTestCase {
    private var listener: RawHeadListener!
    private var client: HTTPClient!

    override func setUpWithError() throws {
        listener = try RawHeadListener()
    }

    override func tearDown() {
        client?.closeIdleConnections()
        client = nil
        listener?.stop()
        listener = nil
        super.tearDown()
    }

    /// A client sending direct (`proxy` nil) or through the listener as an HTTP proxy.
    private func makeClient(throughListener: Bool = false, tunnelling: Bool = false) throws -> HTTPClient {
        let proxy: HTTPClient.Configuration.Proxy = throughListener
            ? .http(try XCTUnwrap(ProxyEndpoint("http://127.0.0.1:\(listener.port)"))) : .none
        return HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), proxy: proxy,
                                               tunnelsPlainHTTPThroughProxy: tunnelling))
    }

    /// Sends `request` with the completion form and waits, bounded, for its one answer.
    private func send(_ request: HTTPClientRequest) throws -> Result<HTTPClientResponse, HTTPClientError> {
        try HTTPClientTestCase.executeWithCompletion(request, on: client)
    }

    private func url(_ rest: String) throws -> URL {
        try XCTUnwrap(URL(string: "http://127.0.0.1:\(listener.port)\(rest)"))
    }

    /// The field lines of `head` (request line and empty line left out).
    private func fieldLines(_ head: String) -> [String] {
        Array(head.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty })
    }

    private func requestLine(_ head: String) -> String {
        head.components(separatedBy: "\r\n").first ?? ""
    }

    /// The values of the fields named `name` (any case) in `head`, in order.
    private func values(_ name: String, in head: String) -> [String] {
        fieldLines(head).compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    // MARK: - Injection

    /// A method that is not a token (RFC 9110 §9.1, RFC 9112 §3.1) would rewrite the request
    /// line or add fields: it fails typed and the listener sees no connection at all.
    func testAMethodThatIsNotATokenIsRefusedBeforeAnythingIsWritten() throws {
        client = try makeClient()
        for method in ["GET /admin HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET", "GE T", "GET\0", "DEL\nETE", "PÖST", "GET(x)"] {
            let result = try send(HTTPClientRequest(url: try url("/"), method: method))
            guard case .failure(.badURL) = result else { return XCTFail("\(method.debugDescription): \(result)") }
        }
        XCTAssertEqual(listener.connectionCount, 0, "nothing connected, nothing written")
        XCTAssertEqual(listener.heads, [])
        // An extension method that is a token still goes out, upper-cased as documented.
        XCTAssertEqual(try send(HTTPClientRequest(url: try url("/"), method: "purge")).get().status, 200)
        XCTAssertEqual(listener.heads.map(requestLine), ["PURGE / HTTP/1.1"])
    }

    /// CR, LF and NUL in a value (RFC 9110 §5.5: never generated) are written as spaces, as the
    /// encoder documents; a name that is not a token (space, colon, non-ASCII) is left out.
    func testLineBreaksAndNULInValuesAndNamesThatAreNoTokensNeverReachTheWire() throws {
        client = try makeClient()
        var request = HTTPClientRequest(url: try url("/"), decompression: .disabled)
        request.headers.add(name: "X-A", value: "a\r\nX-Injected: 1")
        request.headers.add(name: "X-B", value: "b\0c")
        request.headers.add(name: "X-C", value: "d\re\nf")
        request.headers.add(name: "Bad Name", value: "1")
        request.headers.add(name: "Bad:Name", value: "2")
        request.headers.add(name: "Naïve", value: "3")
        request.headers.add(name: "", value: "4")
        XCTAssertEqual(try send(request).get().status, 200)
        let head = try XCTUnwrap(listener.heads.first)
        XCTAssertEqual(head, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(listener.port)\r\nX-A: a  X-Injected: 1\r\nX-B: b c\r\n"
                           + "X-C: d e f\r\n\r\n")
        XCTAssertFalse(head.utf8.contains(0), "no NUL byte on the wire")
    }

    /// Foundation percent-encodes a space, CR or LF in a path or query, so the request line
    /// keeps three parts whatever the URL's text held.
    func testAPathOrQueryNeverPutsASpaceOrLineBreakIntoTheRequestLine() throws {
        client = try makeClient()
        let text = "http://127.0.0.1:\(listener.port)/a b\r\nX-Injected: 1?q=1 HTTP/1.1\r\nX: y"
        let target = try XCTUnwrap(URL(string: text))
        XCTAssertEqual(try send(HTTPClientRequest(url: target)).get().status, 200)
        let head = try XCTUnwrap(listener.heads.first)
        XCTAssertEqual(requestLine(head), "GET /a%20b%0D%0AX-Injected:%201?q=1%20HTTP/1.1%0D%0AX:%20y HTTP/1.1")
        XCTAssertEqual(values("X-Injected", in: head), [])
    }

    /// A host whose percent-encoding decodes to a control byte or a delimiter (NUL, tab, `/`,
    /// `@`, `?`, `#`) is a bad URL: decoded, it would put a NUL in `Host`, truncate the name
    /// resolved (`127.0.0.1%00.evil` reaches 127.0.0.1), or make a proxy read another origin
    /// from the absolute form (`evil%40127.0.0.1` is user `evil` at 127.0.0.1). Refused as curl
    /// refuses them, before any connection, direct and through a proxy.
    func testAHostThatDecodesToAControlByteOrADelimiterIsABadURL() throws {
        let port = listener.port
        let hosts = ["127.0.0.1%00.evil", "127.0.0.1%09x", "evil.test%40127.0.0.1", "evil.test%2F..", "a%3Fb", "a%23b", "a%5Cb"]
        for throughListener in [false, true] {
            client = try makeClient(throughListener: throughListener)
            for host in hosts {
                let target = try XCTUnwrap(URL(string: "http://\(host):\(port)/x"), host)
                let result = try send(HTTPClientRequest(url: target))
                guard case .failure(.badURL) = result else { return XCTFail("\(host), proxy \(throughListener): \(result)") }
            }
        }
        XCTAssertEqual(listener.connectionCount, 0)
        // A percent-encoded name that decodes to plain letters, and an IPv6 literal, still go out.
        client = try makeClient(throughListener: true)
        XCTAssertEqual(try send(HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://ex%61mple.test/")))).get().status, 200)
        XCTAssertEqual(listener.heads.map(requestLine), ["GET http://example.test/ HTTP/1.1"])
    }

    // MARK: - Request-target and Host

    /// Origin form: the path and query as the URL encodes them, `/` for an empty path, never the
    /// fragment or the user info; one `Host` with the port the URL names.
    func testOriginFormKeepsThePercentEncodingAndLeavesOutTheFragmentAndUserInfo() throws {
        client = try makeClient()
        let port = listener.port
        for rest in ["/a%2Fb/%7e;p=1?x=%2F&y=%20#frag", "", "?q", "/p?#f"] {
            XCTAssertEqual(try send(HTTPClientRequest(url: try url(rest))).get().status, 200, rest)
        }
        let withUser = try XCTUnwrap(URL(string: "http://user:pw@127.0.0.1:\(port)/who#f"))
        XCTAssertEqual(try send(HTTPClientRequest(url: withUser)).get().status, 200)
        let heads = listener.heads
        XCTAssertEqual(heads.map(requestLine), ["GET /a%2Fb/%7e;p=1?x=%2F&y=%20 HTTP/1.1", "GET / HTTP/1.1", "GET /?q HTTP/1.1",
                                                "GET /p? HTTP/1.1", "GET /who HTTP/1.1"])
        for head in heads {
            XCTAssertEqual(values("Host", in: head), ["127.0.0.1:\(port)"])
        }
        // User info is neither sent nor turned into credentials (the provider's CredentialsPlugin sends those).
        XCTAssertFalse(try XCTUnwrap(heads.last).contains("user"))
        XCTAssertEqual(values("Authorization", in: try XCTUnwrap(heads.last)), [])
    }

    /// A caller's `Host` (any case) replaces the client's: one `Host` line, the caller's.
    func testACallersHostIsTheOnlyOne() throws {
        client = try makeClient()
        var request = HTTPClientRequest(url: try url("/"))
        request.headers.add(name: "host", value: "virtual.test")
        XCTAssertEqual(try send(request).get().status, 200)
        XCTAssertEqual(values("Host", in: try XCTUnwrap(listener.heads.first)), ["virtual.test"])
    }

    /// Through an HTTP proxy, plain `http` goes in absolute form without user info or fragment;
    /// IPv6 hosts in brackets, the default port left out of the target and `Host`.
    func testAbsoluteFormThroughAProxyLeavesOutUserInfoAndFragment() throws {
        client = try makeClient(throughListener: true)
        let urls = ["http://user:pw@origin.test:8080/p?q=1#frag", "http://[::1]:8080/x", "http://[2001:db8::1]:80/", "http://origin.test"]
        for text in urls {
            XCTAssertEqual(try send(HTTPClientRequest(url: try XCTUnwrap(URL(string: text)))).get().status, 200, text)
        }
        let heads = listener.heads
        XCTAssertEqual(heads.map(requestLine), ["GET http://origin.test:8080/p?q=1 HTTP/1.1", "GET http://[::1]:8080/x HTTP/1.1",
                                                "GET http://[2001:db8::1]/ HTTP/1.1", "GET http://origin.test/ HTTP/1.1"])
        XCTAssertEqual(heads.map { values("Host", in: $0) }, [["origin.test:8080"], ["[::1]:8080"], ["[2001:db8::1]"], ["origin.test"]])
        XCTAssertFalse(heads.contains { $0.contains("user") || $0.contains("pw@") || $0.contains("frag") })
    }

    /// A tunnel: `CONNECT` in authority form (IPv6 in brackets), `Host` the same; inside it the
    /// request in origin form without the URL's user info.
    func testConnectUsesTheAuthorityFormAndTheTunnelCarriesOriginForm() throws {
        client = try makeClient(throughListener: true, tunnelling: true)
        let target = try XCTUnwrap(URL(string: "http://user:pw@[::1]:8080/in?x#f"))
        XCTAssertEqual(try send(HTTPClientRequest(url: target)).get().status, 200)
        let heads = listener.heads
        XCTAssertEqual(heads.map(requestLine), ["CONNECT [::1]:8080 HTTP/1.1", "GET /in?x HTTP/1.1"])
        XCTAssertEqual(heads.map { values("Host", in: $0) }, [["[::1]:8080"], ["[::1]:8080"]])
        XCTAssertFalse(heads.contains { $0.contains("user") })
    }

    // MARK: - Proxy fields

    /// `Proxy-Authorization` is a credential for the proxy (RFC 9110 §11.7.2): a caller's own
    /// goes to an HTTP proxy with an absolute-form request, but a tunnel's origin never sees it
    /// (nor `Proxy-Connection`), since the origin is not the proxy it was meant for.
    func testACallersProxyFieldsNeverReachTheOriginThroughATunnel() throws {
        var request = HTTPClientRequest(url: URL(string: "http://origin.test:8080/in")!)
        request.headers.add(name: "proxy-authorization", value: "Basic c2VjcmV0OnNlY3JldA==")
        request.headers.add(name: "Proxy-Connection", value: "keep-alive")
        request.headers.add(name: "X-Kept", value: "1")

        client = try makeClient(throughListener: true, tunnelling: true)
        XCTAssertEqual(try send(request).get().status, 200)
        let tunnelled = listener.heads
        XCTAssertEqual(tunnelled.map(requestLine), ["CONNECT origin.test:8080 HTTP/1.1", "GET /in HTTP/1.1"])
        let inner = try XCTUnwrap(tunnelled.last)
        XCTAssertEqual(values("Proxy-Authorization", in: inner), [], "the proxy's credential never goes to the origin")
        XCTAssertEqual(values("Proxy-Connection", in: inner), [])
        XCTAssertEqual(values("X-Kept", in: inner), ["1"])

        client.closeIdleConnections()
        client = try makeClient(throughListener: true)
        XCTAssertEqual(try send(request).get().status, 200)
        let forwarded = try XCTUnwrap(listener.heads.last)
        XCTAssertEqual(requestLine(forwarded), "GET http://origin.test:8080/in HTTP/1.1")
        XCTAssertEqual(values("Proxy-Authorization", in: forwarded), ["Basic c2VjcmV0OnNlY3JldA=="], "the proxy's own request carries it")
    }

    // MARK: - Framing

    /// RFC 9110 §8.6: `Content-Length: 0` for an empty POST, PUT or PATCH; neither framing field
    /// for a GET without a body; a caller's `Content-Length` or `Transfer-Encoding` never
    /// replaces the client's framing; a stream of unknown length goes chunked.
    func testTheBodyIsFramedByTheClientWhateverTheCallerSays() throws {
        client = try makeClient()
        for method in ["POST", "PUT", "PATCH"] {
            XCTAssertEqual(try send(HTTPClientRequest(url: try url("/"), method: method)).get().status, 200)
            XCTAssertEqual(try send(HTTPClientRequest(url: try url("/"), method: method, body: .bytes(Data()))).get().status, 200)
        }
        XCTAssertEqual(try send(HTTPClientRequest(url: try url("/"))).get().status, 200)
        var lying = HTTPClientRequest(url: try url("/"), method: "POST", body: .bytes(Data("hello".utf8)))
        lying.headers.add(name: "Content-Length", value: "99")
        lying.headers.add(name: "content-length", value: "5")
        lying.headers.add(name: "Transfer-Encoding", value: "chunked")
        XCTAssertEqual(try send(lying).get().status, 200)
        let streamed = HTTPClientRequest(url: try url("/"), method: "PUT",
                                         body: .stream({ InputStream(data: Data("streamed".utf8)) }, length: nil))
        XCTAssertEqual(try send(streamed).get().status, 200)

        let heads = listener.heads
        XCTAssertEqual(heads.count, 9)
        for head in heads.prefix(6) {
            XCTAssertEqual(values("Content-Length", in: head), ["0"], requestLine(head))
            XCTAssertEqual(values("Transfer-Encoding", in: head), [])
        }
        XCTAssertEqual(values("Content-Length", in: heads[6]) + values("Transfer-Encoding", in: heads[6]), [], "a bare GET")
        XCTAssertEqual(values("Content-Length", in: heads[7]), ["5"])
        XCTAssertEqual(values("Transfer-Encoding", in: heads[7]), [])
        XCTAssertEqual(values("Content-Length", in: heads[8]), [])
        XCTAssertEqual(values("Transfer-Encoding", in: heads[8]), ["chunked"])
        XCTAssertEqual(listener.bodies.suffix(2), [Array("hello".utf8), Array("8\r\nstreamed\r\n0\r\n\r\n".utf8)])
    }

    // MARK: - Repeated fields

    /// A field the caller repeats goes as the caller gave it, one line each: two `Accept` lines,
    /// two `Cookie` lines, never joined with a comma.
    func testRepeatedFieldsAreWrittenOneLineEachAndCookiesAreNeverCommaJoined() throws {
        client = try makeClient()
        var request = HTTPClientRequest(url: try url("/"))
        request.headers.add(name: "Accept", value: "text/html")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Cookie", value: "a=1; b=2")
        request.headers.add(name: "Cookie", value: "c=3")
        XCTAssertEqual(try send(request).get().status, 200)
        let head = try XCTUnwrap(listener.heads.first)
        XCTAssertEqual(values("Accept", in: head), ["text/html", "application/json"])
        XCTAssertEqual(values("Cookie", in: head), ["a=1; b=2", "c=3"])
    }
}

/// A listener on 127.0.0.1 that keeps each request head as the raw text received (and each
/// body's raw bytes, `Content-Length` or chunked) and answers `200` with no body; a `CONNECT`
/// is answered `200` and the tunnel then read the same way, so it serves as origin or HTTP proxy.
private final class RawHeadListener: Sendable {
    private let listener: ThreadedListener
    private let receivedHeads = Recorder<String>()
    private let receivedBodies = Recorder<[UInt8]>()

    init() throws {
        listener = try ThreadedListener(lifetime: .seconds(60))
        listener.start { [self] client, _ in serve(client) }
    }

    /// The listening port.
    var port: UInt16 { listener.port }
    /// Connections accepted so far.
    var connectionCount: Int { listener.connectionCount }
    /// Every head received, in arrival order, with its empty line.
    var heads: [String] { receivedHeads.values }
    /// Every body received (not a `CONNECT`'s), in arrival order.
    var bodies: [[UInt8]] { receivedBodies.values }

    func stop() {
        listener.stop()
    }

    private func serve(_ client: TCPSocket) {
        var buffer: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(10)
        /// Reads more into `buffer`; false at the end of the stream or the deadline.
        func readMore() -> Bool {
            while !listener.isStopped, ContinuousClock.now < deadline {
                do {
                    let bytes = try client.read(timeout: .milliseconds(50))
                    if bytes.isEmpty { return false }
                    buffer += bytes
                    return true
                } catch {
                    continue
                }
            }
            return false
        }
        while true {
            guard let end = Self.end(of: Array("\r\n\r\n".utf8), in: buffer) else {
                guard readMore() else { return }
                continue
            }
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end)
            receivedHeads.append(head)
            if head.hasPrefix("CONNECT ") {
                guard (try? client.write(Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8), timeout: .seconds(5))) != nil else { return }
                continue
            }
            let lower = head.lowercased()
            if let length = Self.contentLength(lower) {
                while buffer.count < length { guard readMore() else { return } }
                receivedBodies.append(Array(buffer[..<length]))
                buffer.removeFirst(length)
            } else if lower.contains("\r\ntransfer-encoding: chunked\r\n") {
                var last: Int?
                while true {
                    last = Self.end(of: Array("0\r\n\r\n".utf8), in: buffer)
                    if last != nil { break }
                    guard readMore() else { return }
                }
                guard let last else { return }
                receivedBodies.append(Array(buffer[..<last]))
                buffer.removeFirst(last)
            }
            guard (try? client.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8), timeout: .seconds(5))) != nil else { return }
        }
    }

    /// The index just past the first `marker` in `bytes`.
    private static func end(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            return start + marker.count
        }
        return nil
    }

    /// The first `content-length` value of a lower-cased head.
    private static func contentLength(_ head: String) -> Int? {
        for line in head.components(separatedBy: "\r\n") where line.hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
