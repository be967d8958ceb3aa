import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import TestSupport
import XCTest

/// The two transports side by side against URLSession's documented behaviour: each
/// `URLSessionConfiguration` property docs/COMING_FROM.md says is honoured acts on the wire
/// through `SocketTransport(configuration:)`, and through `URLSessionTransport(configuration:)`
/// where Linux's URLSession does the same; failures, cancellation, uploads and the response's
/// fields are the same through both.
final class TransportParityRulesTests: FeedServerTestCase {
    override var serverConfiguration: FeedServer.Configuration { .init(maxBodyBytes: 4_000_000) }

    /// What FeedServer's `/echo` answers, with the body.
    private struct Echo: Decodable {
        let headers: [String: String]
        let body: String
        let method: String

        func field(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Both transports made from `configuration`, labelled.
    private func transports(_ configuration: URLSessionConfiguration) -> [(String, any HTTPTransport)] {
        [("SocketTransport", SocketTransport(configuration: configuration)), ("URLSessionTransport", URLSessionTransport(configuration: configuration))]
    }

    private func ephemeral(_ change: (URLSessionConfiguration) -> Void = { _ in }) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        change(configuration)
        return configuration
    }

    /// The one answer `transport` gives `request` with `options`, within `wait` seconds.
    private func outcome(_ request: URLRequest, through transport: any HTTPTransport, options: TransportOptions = TransportOptions(),
                         wait: TimeInterval = 15, file: StaticString = #filePath,
                         line: UInt = #line) throws -> Result<Response, ProviderError> {
        let answers = Recorder<Result<Response, ProviderError>>()
        _ = transport.send(request, options: options) { answers.append($0) }
        XCTAssertTrue(waitUntil(timeout: wait) { answers.count >= 1 }, "no answer", file: file, line: line)
        return try XCTUnwrap(answers.values.first, file: file, line: line)
    }

    private func echo(_ response: Response, file: StaticString = #filePath, line: UInt = #line) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: response.data)
    }

    // MARK: - Configuration properties on the wire

    /// `httpAdditionalHeaders`: sent with every request; a request's own value (any case) wins.
    func testAdditionalHeadersReachTheServerAndTheRequestsOwnValueWins() throws {
        let configuration = ephemeral { $0.httpAdditionalHeaders = ["X-Team": "ios", "Accept": "text/plain"] }
        for (label, transport) in transports(configuration) {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
            request.setValue("own", forHTTPHeaderField: "x-team")
            let echoed = try echo(outcome(request, through: transport).get())
            XCTAssertEqual(echoed.field("X-Team"), "own", label)
            XCTAssertEqual(echoed.field("Accept"), "text/plain", label)
            XCTAssertEqual(echoed.headers.keys.filter { $0.caseInsensitiveCompare("x-team") == .orderedSame }.count, 1, label)
        }
    }

    /// A transport's `sessionHeaders(for:)` (what a provider with plugins adds to the request
    /// for them to see) leaves out the fields the request sets, names compared without case, as
    /// `HTTPTransport` says: a request's own `x-team` then reaches the server through a provider
    /// with a plugin, where a configuration's `X-Team` listed beside it could replace it.
    func testTheRequestsOwnFieldWinsThroughAProviderWithPlugins() throws {
        let configuration = ephemeral { $0.httpAdditionalHeaders = ["X-Team": "ios", "X-Other": "yes"] }
        for (label, transport) in transports(configuration) {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
            request.setValue("own", forHTTPHeaderField: "x-team")
            let listed = transport.sessionHeaders(for: request)
            XCTAssertNil(HeaderFieldsLookup.value("X-Team", in: listed), "\(label): \(listed)")
            XCTAssertEqual(HeaderFieldsLookup.value("X-Other", in: listed), "yes", label)

            let provider = NetworkProvider<TestTarget>(transport: transport, plugins: [NetworkLoggerPlugin(configuration: .init(output: { _, _ in }))])
            let answers = Recorder<Result<Response, ProviderError>>()
            _ = provider.request(TestTarget(baseURL: server.baseURL, path: "/echo", headers: ["x-team": "own"])) { answers.append($0) }
            XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 }, label)
            let echoed = try echo(XCTUnwrap(answers.values.first, label).get())
            XCTAssertEqual(echoed.field("X-Team"), "own", label)
            XCTAssertEqual(echoed.field("X-Other"), "yes", label)
        }
    }

    /// `timeoutIntervalForRequest`: a wait for the answer longer than it fails `.timedOut`.
    func testTimeoutIntervalForRequestEndsASilentWait() throws {
        for (label, transport) in transports(ephemeral { $0.timeoutIntervalForRequest = 1 }) {
            let error = try XCTUnwrap(outcome(URLRequest(url: server.baseURL.appendingPathComponent("delay/4000")), through: transport)
                .failure, label)
            XCTAssertEqual(error.urlError?.code, .timedOut, "\(label): \(error)")
        }
    }

    /// It bounds a connection attempt too (`URLRequest.timeoutInterval`: "if during a connection
    /// attempt the request remains idle for longer than the timeout interval"): a TLS handshake
    /// the server never answers fails `.timedOut` after it, not after the client's 10 s connect
    /// timeout.
    func testTimeoutIntervalForRequestEndsASilentHandshake() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let silent = try LoopbackListener(.silent)
        defer { silent.stop() }
        for (label, transport) in transports(ephemeral { $0.timeoutIntervalForRequest = 1 }) {
            let started = ContinuousClock.now
            let error = try XCTUnwrap(outcome(URLRequest(url: URL(fixed: "https://127.0.0.1:\(silent.port)/")), through: transport)
                .failure, label)
            XCTAssertEqual(error.urlError?.code, .timedOut, "\(label): \(error)")
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(4), label)
        }
    }

    /// It bounds the wait between bytes, not the exchange: a drip slower than it in total but
    /// with short gaps arrives whole.
    func testTimeoutIntervalForRequestIsAnIdleTimeNotATotal() throws {
        for (label, transport) in transports(ephemeral { $0.timeoutIntervalForRequest = 1 }) {
            let url = URL(fixed: server.baseURL.absoluteString + "/drip?interval=200&count=8")
            let response = try outcome(URLRequest(url: url), through: transport).get()
            XCTAssertEqual(response.data.count, 8, label)
        }
    }

    /// `URLRequest.timeoutInterval`, set by the caller, is the request's idle timeout over the
    /// configuration's, both ways (FoundationNetworking gives a set one precedence whatever its value).
    func testTheRequestsOwnTimeoutIntervalWins() throws {
        for (label, transport) in transports(ephemeral { $0.timeoutIntervalForRequest = 30 }) {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("delay/4000"))
            request.timeoutInterval = 1
            let error = try XCTUnwrap(outcome(request, through: transport).failure, label)
            XCTAssertEqual(error.urlError?.code, .timedOut, "\(label): \(error)")
        }
        for (label, transport) in transports(ephemeral { $0.timeoutIntervalForRequest = 1 }) {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("delay/2000"))
            request.timeoutInterval = 10
            XCTAssertEqual(try outcome(request, through: transport).get().statusCode, 200, label)
        }
    }

    /// A timeout under a second is one: an answer that comes within it arrives, through both
    /// transports (FoundationNetworking truncates a timeout to whole seconds, a 0.5 s one to 0).
    func testASubSecondTimeoutIsKept() throws {
        for (label, transport) in transports(ephemeral { $0.timeoutIntervalForRequest = 0.8 }) {
            XCTAssertEqual(try outcome(URLRequest(url: server.baseURL.appendingPathComponent("delay/100")), through: transport)
                .get().statusCode, 200, "\(label), the configuration's")
            var request = URLRequest(url: server.baseURL.appendingPathComponent("delay/100"))
            request.timeoutInterval = 0.7
            XCTAssertEqual(try outcome(request, through: transport).get().statusCode, 200, "\(label), the request's")
            request.url = server.baseURL.appendingPathComponent("delay/3000")
            let error = try XCTUnwrap(outcome(request, through: transport).failure, label)
            XCTAssertEqual(error.urlError?.code, .timedOut, "\(label): \(error)")
        }
    }

    /// `timeoutIntervalForResource` bounds the whole transfer: a drip whose every gap is short
    /// fails `.timedOut` once the whole exchange outlasts it (Apple's URLSession enforces it;
    /// `URLSessionTransport` enforces it on Linux, whose FoundationNetworking ignores it).
    func testTimeoutIntervalForResourceEndsASlowDrip() throws {
        let configuration = ephemeral {
            $0.timeoutIntervalForRequest = 5
            $0.timeoutIntervalForResource = 1
        }
        for (label, transport) in transports(configuration) {
            let url = URL(fixed: server.baseURL.absoluteString + "/drip?interval=200&count=25")
            let started = ContinuousClock.now
            let error = try XCTUnwrap(outcome(URLRequest(url: url), through: transport).failure, label)
            XCTAssertEqual(error.urlError?.code, .timedOut, "\(label): \(error)")
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(4), label)
        }
    }

    /// `httpMaximumConnectionsPerHost = 1`: concurrent requests to one host share one connection.
    func testMaximumConnectionsPerHostBoundsTheConnections() throws {
        for (label, transport) in transports(ephemeral { $0.httpMaximumConnectionsPerHost = 1 }) {
            let before = server.connectionCount
            let answers = Recorder<Result<Response, ProviderError>>()
            for _ in 0..<3 {
                _ = transport.send(URLRequest(url: server.baseURL.appendingPathComponent("delay/200")), progress: nil) { answers.append($0) }
            }
            XCTAssertTrue(waitUntil(timeout: 15) { answers.count == 3 }, label)
            XCTAssertEqual(answers.values.compactMap { try? $0.get().statusCode }, [200, 200, 200], label)
            XCTAssertEqual(server.connectionCount - before, 1, label)
        }
    }

    /// `DefaultTransport` over a `URLSessionTransport` whose configuration sets
    /// `httpAdditionalHeaders`: the request it hands URLSession does not carry the socket
    /// transport's default of a field the configuration sets (URLSession lets a request's own
    /// field win, so the configuration's would never go), and `sessionHeaders(for:)` names each
    /// field once, with the configuration's value ("under the URLSession configuration's own").
    /// A `URLProtocol` of the configuration's records the request URLSession is handed.
    func testDefaultTransportLetsTheURLSessionConfigurationsHeadersWin() throws {
        let configuration = ephemeral {
            $0.httpAdditionalHeaders = ["user-agent": "Mine/1", "X-Team": "ios"]
            $0.protocolClasses = [RecordingURLProtocol.self]
        }
        let transport = DefaultTransport(urlSessionTransport: URLSessionTransport(configuration: configuration))
        let request = URLRequest(url: URL(fixed: "parity-\(UUID().uuidString.lowercased())://host/headers"))
        XCTAssertEqual(try SessionTestSupport.send(request, through: transport).statusCode, 200)
        let handed = try XCTUnwrap(RecordingURLProtocol.fields(for: try XCTUnwrap(request.url)))
        XCTAssertTrue([nil, "Mine/1"].contains(HeaderFieldsLookup.value("User-Agent", in: handed)),
                      "the socket transport's User-Agent would hide the configuration's: \(handed)")
        XCTAssertEqual(HeaderFieldsLookup.value("Accept-Language", in: handed), DefaultHeaders.standard["Accept-Language"],
                       "the socket transport's defaults the configuration does not set still go")
        let logged = transport.sessionHeaders(for: request)
        XCTAssertEqual(logged.keys.filter { $0.caseInsensitiveCompare("User-Agent") == .orderedSame }, ["user-agent"], "\(logged)")
        XCTAssertEqual(HeaderFieldsLookup.value("User-Agent", in: logged), "Mine/1")
        XCTAssertEqual(HeaderFieldsLookup.value("X-Team", in: logged), "ios")
    }

    // MARK: - Errors

    /// The same failure gives the same `URLError` code through both transports, the one Apple's
    /// URLSession gives: a connection closed before the answer or inside its body is -1005 (libcurl
    /// reports -1011 "Empty reply from server" and -1 "transfer closed with N bytes remaining").
    func testTheSameFailureGivesTheSameURLErrorCode() throws {
        let refused = try LoopbackListener.refusedPort()
        let cases: [(String, URLRequest, URLError.Code)] = [
            ("refused", URLRequest(url: URL(fixed: "http://127.0.0.1:\(refused)/")), .cannotConnectToHost),
            ("empty reply", URLRequest(url: server.baseURL.appendingPathComponent("drop")), .networkConnectionLost),
            ("cut body", URLRequest(url: server.baseURL.appendingPathComponent("wrong-length")), .networkConnectionLost),
            ("half a body", URLRequest(url: server.baseURL.appendingPathComponent("half")), .networkConnectionLost),
            ("not HTTP", URLRequest(url: server.baseURL.appendingPathComponent("garbage")), .badServerResponse),
            ("too many redirects", URLRequest(url: server.baseURL.appendingPathComponent("redirect/302/25")), .httpTooManyRedirects),
        ]
        for (label, transport) in transports(ephemeral()) {
            for (name, request, code) in cases {
                let error = try XCTUnwrap(outcome(request, through: transport).failure, "\(label) \(name)")
                XCTAssertEqual(error.urlError?.code, code, "\(label) \(name): \(error)")
                XCTAssertEqual(error.isLostConnection, code == .networkConnectionLost, "\(label) \(name)")
            }
        }
    }

    /// A cut body keeps the response that arrived, through both transports.
    func testACutBodyKeepsItsResponse() throws {
        for (label, transport) in transports(ephemeral()) {
            let error = try XCTUnwrap(outcome(URLRequest(url: server.baseURL.appendingPathComponent("wrong-length")), through: transport)
                .failure, label)
            guard case .underlying(_, let response) = error else { return XCTFail("\(label): \(error)") }
            XCTAssertEqual(response?.statusCode, 200, label)
        }
    }

    /// A server certificate whose root the system does not know fails with URLSession's
    /// -1204 through both transports (libcurl reports -1 "SSL certificate problem: unable to get
    /// local issuer certificate").
    func testAnUntrustedCertificateIsACertificateError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let tlsServer = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        defer { tlsServer.stop() }
        for (label, transport) in transports(ephemeral()) {
            let error = try XCTUnwrap(outcome(URLRequest(url: tlsServer.baseURL.appendingPathComponent("echo")), through: transport)
                .failure, label)
            XCTAssertEqual(error.urlError?.code, .serverCertificateHasUnknownRoot, "\(label): \(error)")
        }
    }

    // MARK: - Cancellation

    /// Cancelled at once (the server takes two seconds to answer, so the cancel always comes
    /// first: a fast answer can beat a cancel made right after the call), while connecting (a
    /// server that never answers) and inside the body (a drip), a provider's request completes
    /// exactly once, with `URLError(.cancelled)`, through both transports; the transport itself
    /// reports nothing after the cancel.
    func testACancelledRequestCompletesOnceWithCancelled() throws {
        let silent = try LoopbackListener(.silent)
        defer { silent.stop() }
        let drip = TestTarget(baseURL: server.baseURL, path: "/drip",
                              task: .requestParameters(parameters: ["interval": "100", "count": "50"], encoding: URLEncoding.queryString))
        for (label, transport) in transports(ephemeral()) {
            let cases: [(String, TestTarget)] = [
                ("at once", TestTarget(baseURL: server.baseURL, path: "/delay/2000")),
                ("while waiting", TestTarget(baseURL: URL(fixed: "http://127.0.0.1:\(silent.port)"), path: "/")),
                ("inside the body", drip),
            ]
            for (name, target) in cases {
                let accepted = silent.acceptedCount
                let provider = NetworkProvider<TestTarget>(transport: transport)
                let answers = Recorder<Result<Response, ProviderError>>()
                let progress = Recorder<Double>()
                let cancellable = provider.request(target, callbackQueue: nil, progress: { progress.append($0.progress) }) {
                    answers.append($0)
                }
                switch name {
                case "while waiting": XCTAssertTrue(waitUntil(timeout: 5) { silent.acceptedCount > accepted }, "\(label) \(name)")
                case "inside the body": XCTAssertTrue(waitUntil(timeout: 5) { progress.count > 1 }, "\(label) \(name)")
                default: break
                }
                cancellable.cancel()
                XCTAssertTrue(waitUntil(timeout: 5) { answers.count >= 1 }, "\(label) \(name)")
                guard case .failure(let error)? = answers.values.first else { return XCTFail("\(label) \(name): \(answers.values)") }
                XCTAssertEqual(error.urlError?.code, .cancelled, "\(label) \(name): \(error)")
                // A later request through the same transport has finished: anything the cancelled
                // one still had to report would have come by now.
                XCTAssertEqual(try outcome(URLRequest(url: server.baseURL.appendingPathComponent("echo")), through: transport)
                    .get().statusCode, 200, "\(label) \(name)")
                XCTAssertEqual(answers.count, 1, "\(label) \(name): \(answers.values)")
            }
        }
    }

    /// A transport's `send` cancelled at once reports nothing, through both transports.
    func testATransportReportsNothingAfterACancel() throws {
        for (label, transport) in transports(ephemeral()) {
            let answers = Recorder<Result<Response, ProviderError>>()
            let url = URL(fixed: server.baseURL.absoluteString + "/drip?interval=50&count=10")
            let cancellable = transport.send(URLRequest(url: url), progress: nil) { answers.append($0) }
            cancellable.cancel()
            XCTAssertTrue(cancellable.isCancelled, label)
            XCTAssertEqual(try outcome(URLRequest(url: server.baseURL.appendingPathComponent("delay/600")), through: transport)
                .get().statusCode, 200, label)
            XCTAssertEqual(answers.count, 0, "\(label): \(answers.values)")
        }
    }

    // MARK: - Uploads

    /// Each `UploadSource` reaches the server with its bytes: `Content-Length` when the length
    /// is known, through both transports.
    func testEachUploadSourceArrivesWhole() throws {
        let payload = Data(BulkBytes.make(200_000))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
        try payload.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let sources: [(String, UploadSource)] = [
            ("data", .data(payload)), ("file", .file(file)),
            ("stream", .stream({ InputStream(data: payload) }, length: Int64(payload.count))),
        ]
        for (label, transport) in transports(ephemeral()) {
            for (name, source) in sources {
                var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
                request.httpMethod = "PUT"
                let echoed = try echo(outcome(request, through: transport, options: TransportOptions(upload: source)).get())
                XCTAssertEqual(Data(base64Encoded: echoed.body), payload, "\(label) \(name)")
                XCTAssertEqual(echoed.field("Content-Length"), String(payload.count), "\(label) \(name)")
                XCTAssertNil(echoed.field("Transfer-Encoding"), "\(label) \(name)")
                XCTAssertEqual(echoed.method, "PUT", "\(label) \(name)")
            }
        }
    }

    /// A stream without a length arrives whole through both, framed as each documents: chunked
    /// over sockets, with the `Content-Length` of its staged file through URLSession.
    func testAStreamWithoutALengthArrivesWholeFramedAsDocumented() throws {
        let payload = Data(BulkBytes.make(100_000))
        for (label, transport) in transports(ephemeral()) {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
            request.httpMethod = "POST"
            let options = TransportOptions(upload: .stream({ InputStream(data: payload) }, length: nil))
            let echoed = try echo(outcome(request, through: transport, options: options).get())
            XCTAssertEqual(Data(base64Encoded: echoed.body), payload, label)
            if transport is SocketTransport {
                XCTAssertEqual(echoed.field("Transfer-Encoding"), "chunked", label)
                XCTAssertNil(echoed.field("Content-Length"), label)
            } else {
                XCTAssertEqual(echoed.field("Content-Length"), String(payload.count), label)
                XCTAssertNil(echoed.field("Transfer-Encoding"), label)
            }
        }
    }

    // MARK: - Response

    /// A `HEAD` answer has no body and announces its `GET`'s length as `expectedContentLength`.
    func testAHeadAnswerAnnouncesItsLength() throws {
        for (label, transport) in transports(ephemeral()) {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("bytes/1000"))
            request.httpMethod = "HEAD"
            let response = try outcome(request, through: transport).get()
            XCTAssertEqual(response.data.count, 0, label)
            XCTAssertEqual(response.response?.expectedContentLength, 1000, label)
            XCTAssertEqual(response.response?.mimeType, "application/octet-stream", label)
            XCTAssertNil(response.response?.textEncodingName, label)
        }
    }

    /// The response's fields as URLSession gives them: repeated names joined with ", ",
    /// case-insensitive lookup, `mimeType` and `textEncodingName` from `Content-Type`,
    /// `expectedContentLength` from `Content-Length`.
    func testResponseFieldsAreTheSameThroughBothTransports() throws {
        let scripted = try ScriptedHTTPServer { _, _, _ in
            let body = "héllo"
            var text = "HTTP/1.1 201 Created\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nX-Many: 1\r\nX-Many: 2\r\n"
            text += "Set-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            return .respond(Array(text.utf8))
        }
        defer { scripted.stop() }
        var seen: [String: [String]] = [:]
        for (label, transport) in transports(ephemeral { $0.httpCookieStorage = nil }) {
            let response = try outcome(URLRequest(url: scripted.url("/fields")), through: transport).get()
            let http = try XCTUnwrap(response.response, label)
            XCTAssertEqual(http.statusCode, 201, label)
            XCTAssertEqual(http.value(forHTTPHeaderField: "x-many"), "1, 2", label)
            XCTAssertEqual(response.headerValue("X-MANY"), "1, 2", label)
            XCTAssertEqual(http.mimeType, "text/plain", label)
            XCTAssertEqual(http.textEncodingName?.lowercased(), "iso-8859-1", label)
            XCTAssertEqual(http.expectedContentLength, Int64("héllo".utf8.count), label)
            XCTAssertEqual(http.url, scripted.url("/fields"), label)
            seen[label] = [http.value(forHTTPHeaderField: "Set-Cookie") ?? "-", http.value(forHTTPHeaderField: "content-length") ?? "-"]
        }
        XCTAssertEqual(seen["SocketTransport"], seen["URLSessionTransport"])
    }

    /// After redirects, the response's `url` is the last hop's.
    func testTheResponseURLIsTheLastHops() throws {
        for (label, transport) in transports(ephemeral()) {
            let response = try outcome(URLRequest(url: server.baseURL.appendingPathComponent("redirect/302/2")), through: transport).get()
            XCTAssertEqual(response.response?.url?.path, "/echo", label)
            XCTAssertEqual(response.statusCode, 200, label)
        }
    }
}

extension Result {
    /// The failure, nil for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Looks a field up by name without case in a `[String: String]` of fields.
private enum HeaderFieldsLookup {
    static func value(_ name: String, in fields: [String: String]) -> String? {
        fields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A `URLProtocol` for `parity-*://` URLs that records the fields URLSession hands it and
/// answers 200 with no body.
private final class RecordingURLProtocol: URLProtocol {
    private static let recorded = Lock<[URL: [String: String]]>([:])

    static func fields(for url: URL) -> [String: String]? { recorded.withLock { $0[url] } }

    override class func canInit(with request: URLRequest) -> Bool { request.url?.scheme?.hasPrefix("parity-") == true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url else { return }
        let fields = request.allHTTPHeaderFields ?? [:]
        Self.recorded.withLock { $0[url] = fields }
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "0"])
        if let response { client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
