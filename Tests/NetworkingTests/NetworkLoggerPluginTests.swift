import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FeedServer
import Networking
import TestSupport
import XCTest

final class NetworkLoggerPluginTests: LeakCheckingTestCase {
    private let secret = "S3CR3T-value"

    private func optionSets() -> [(String, NetworkLoggerPlugin.Configuration.LogOptions)] {
        [("default", .default), ("verbose", .verbose), ("curl", [.formatRequestAscURL]),
         ("curl+verbose", NetworkLoggerPlugin.Configuration.LogOptions.verbose.union(.formatRequestAscURL)),
         ("method", [.requestMethod]), ("headers", [.requestHeaders]), ("body", [.requestBody]),
         ("success", [.successResponseBody]), ("error", [.errorResponseBody]), ("responseHeaders", [.responseHeaders])]
    }

    private func secretRequest(body: Data?, contentType: String) -> URLRequest {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:9/p?api_key=\(secret)&page=2&token%5B%5D=\(secret)")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        request.setValue("session=\(secret)", forHTTPHeaderField: "cookie")
        request.setValue("Basic \(secret)", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue(secret, forHTTPHeaderField: "X-Api-Key")
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.setValue("visible-header", forHTTPHeaderField: "X-Trace")
        request.httpBody = body
        return request
    }

    private func secretResponse(for request: URLRequest, status: Int) -> Response {
        let http = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                                   headerFields: ["Set-Cookie": "id=\(secret); HttpOnly", "Content-Type": "application/json", "X-Visible": "shown"])
        let body = Data(#"{"password":"\#(secret)","items":[{"api_key":"\#(secret)"}],"ok":"visible-body"}"#.utf8)
        return Response(statusCode: status, data: body, request: request, response: http)
    }

    func testSecretsNeverAppearAtAnyOptionSet() {
        let jsonBody = Data(#"{"user":"ann","password":"\#(secret)","nested":{"api_key":"\#(secret)","list":[{"password":"\#(secret)"}]}}"#.utf8)
        let formBody = Data("user=ann&password=\(secret)&api_key=\(secret)".utf8)
        for (label, options) in optionSets() {
            for (body, type) in [(jsonBody, "application/json"), (formBody, "application/x-www-form-urlencoded; charset=utf-8")] {
                let collector = LineCollector()
                let logger = NetworkLoggerPlugin(configuration: .init(output: collector.output, logOptions: options,
                                                                      redactedKeys: ["password", "api_key", "X-Api-Key", "token"]))
                let request = secretRequest(body: body, contentType: type)
                let target = TestTarget(path: "/items", headers: ["Authorization": "Bearer \(secret)"])
                logger.willSend(PreparedRequest(request: request, sessionHeaders: ["Cookie": "s=\(secret)"]), target: target)
                logger.didReceive(.success(secretResponse(for: request, status: 200)), target: target)
                logger.didReceive(.failure(.statusCode(secretResponse(for: request, status: 401))), target: target)
                logger.didReceive(.failure(.underlying(URLError(.timedOut), nil)), target: target)
                XCTAssertFalse(collector.lines.isEmpty, label)
                XCTAssertFalse(collector.text.contains(secret), "\(label) \(type):\n\(collector.text)")
            }
        }
    }

    func testVerboseNamesRedactedHeadersAndShowsTheRest() {
        let collector = LineCollector()
        let logger = NetworkLoggerPlugin(configuration: .init(output: collector.output, logOptions: .verbose, redactedKeys: ["password"]))
        let request = secretRequest(body: Data(#"{"password":"\#(secret)","user":"ann"}"#.utf8), contentType: "application/json")
        logger.willSend(PreparedRequest(request: request), target: TestTarget())
        logger.didReceive(.success(secretResponse(for: request, status: 200)), target: TestTarget())
        let text = collector.text
        XCTAssertTrue(text.contains(#""Authorization": "<redacted>""#), text)
        XCTAssertTrue(text.lowercased().contains(#""cookie": "<redacted>""#), text)
        XCTAssertTrue(text.contains(#""Proxy-Authorization": "<redacted>""#), text)
        XCTAssertTrue(text.contains("\"Set-Cookie\" =     (\n        \"<redacted>\"\n    );"), text)
        XCTAssertTrue(text.contains(#""X-Trace": "visible-header""#), text)
        XCTAssertTrue(text.contains(#""password":"<redacted>""#), text)
        XCTAssertTrue(text.contains(#""user":"ann""#), text)
        XCTAssertTrue(text.contains("HTTP Request Method: POST"), text)
        XCTAssertTrue(text.contains("visible-body"), text)
        XCTAssertTrue(text.contains("X-Visible"), text)
        XCTAssertTrue(text.contains(secret), "X-Api-Key and api_key are not redacted unless configured: \(text)")
    }

    /// An entry formatter without the date, so lines compare whole.
    private func plainLogger(_ collector: LineCollector, _ options: NetworkLoggerPlugin.Configuration.LogOptions,
                             redacting keys: Set<String> = []) -> NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: .init(formatter: .init(entry: { identifier, message, _ in "\(identifier): \(message)" }),
                                                 output: collector.output, logOptions: options, redactedKeys: keys))
    }

    func testDefaultEntryIsMoyasShapeWithADate() {
        let collector = LineCollector()
        NetworkLoggerPlugin(configuration: .init(output: collector.output)).willSend(PreparedRequest(request: nil), target: TestTarget())
        let line = collector.lines.first ?? ""
        XCTAssertTrue(line.hasPrefix("Networking: ["), line)
        XCTAssertTrue(line.hasSuffix("] Request: (invalid request)"), line)
    }

    func testDefaultOptionsLogURLHeadersAndMethodAsMoya() {
        let collector = LineCollector()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:9/p?page=2")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data("body-text".utf8)
        plainLogger(collector, .default).willSend(PreparedRequest(request: request, sessionHeaders: ["User-Agent": "ua \"1\""]),
                                                   target: TestTarget())
        XCTAssertEqual(collector.lines, [
            "Request: http://127.0.0.1:9/p?page=2",
            #"Request Headers: ["Accept": "application/json", "Authorization": "<redacted>", "User-Agent": "ua \"1\""]"#,
            "HTTP Request Method: POST",
        ])
    }

    func testRequestBodyAndBodyStreamEntries() throws {
        let collector = LineCollector()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("logger-\(UUID().uuidString).txt")
        try Data("file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var upload = try endpoint(.requestPlain, method: .post).urlRequest()
        upload.httpBodyStream = InputStream(url: file)
        plainLogger(collector, [.requestBody]).willSend(PreparedRequest(request: upload), target: TestTarget())
        XCTAssertEqual(collector.lines.count, 2, collector.text)
        XCTAssertEqual(collector.lines.first, "Request: http://127.0.0.1:8080/api/items")
        XCTAssertTrue(collector.lines.last?.hasPrefix("Request Body Stream: <") == true, collector.text)
        let plain = try endpoint(.requestData(Data("hello".utf8)), method: .post).urlRequest()
        plainLogger(collector, [.requestBody]).willSend(PreparedRequest(request: plain), target: TestTarget())
        XCTAssertEqual(collector.lines.last, "Request Body: hello")
    }

    /// Moya's response line as Apple writes `HTTPURLResponse.description` (Moya's integration
    /// test looks for `{ status code: 200, headers` and `"content-length"` once lowercased), on
    /// Linux too, where FoundationNetworking's own description reads `{ status: 200, headers {`.
    func testResponseLineIsApplesHTTPURLResponseLayoutAndTheBodyFollows() throws {
        let collector = LineCollector()
        let url = URL(string: "http://127.0.0.1:9/r?token=abc&page=2")!
        let http = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                                                 headerFields: ["Server": "FeedServer", "Content-Length": "2", "Set-Cookie": "id=1",
                                                                "Content-Type": "text/plain; charset=\"utf-8\""]))
        plainLogger(collector, [.successResponseBody], redacting: ["token"])
            .didReceive(.success(Response(statusCode: 200, data: Data("ok".utf8), response: http)), target: TestTarget())
        XCTAssertEqual(collector.lines, ["""
            Response: { URL: http://127.0.0.1:9/r?token=<redacted>&page=2 } { Status Code: 200, Headers {
                "Content-Length" =     (
                    2
                );
                "Content-Type" =     (
                    "text/plain; charset=\\"utf-8\\""
                );
                Server =     (
                    FeedServer
                );
                "Set-Cookie" =     (
                    "<redacted>"
                );
            } }
            """, "Response Body: ok"])
        let log = collector.text.lowercased()
        XCTAssertTrue(log.contains("{ url: http://127.0.0.1:9/r"))
        XCTAssertTrue(log.contains("{ status code: 200, headers"), "Moya's integration test's expectation")
        XCTAssertTrue(log.contains("\"content-length\""))
    }

    func testResponseLineWithoutHeaders() throws {
        let collector = LineCollector()
        let http = try XCTUnwrap(HTTPURLResponse(url: URL(string: "https://api.github.com/zen")!, statusCode: 204,
                                                 httpVersion: "HTTP/1.1", headerFields: [:]))
        plainLogger(collector, []).didReceive(.success(Response(statusCode: 204, data: Data(), response: http)), target: TestTarget())
        XCTAssertEqual(collector.lines, ["Response: { URL: https://api.github.com/zen } { Status Code: 204, Headers {\n} }"])
    }

    func testEmptyNetworkResponseAndErrorLinesNameTheTarget() {
        let collector = LineCollector()
        let logger = plainLogger(collector, .verbose)
        logger.didReceive(.success(Response(statusCode: 204, data: Data())), target: StubbedAPI.ok)
        logger.didReceive(.failure(.underlying(URLError(.notConnectedToInternet), nil)), target: StubbedAPI.ok)
        XCTAssertEqual(collector.lines.first, "Response: Received empty network response for ok.")
        XCTAssertEqual(collector.lines.last, "Error: Error calling ok : \(ProviderError.underlying(URLError(.notConnectedToInternet), nil))")
    }

    func testErrorLineMasksHiddenValuesInTheTargetsDescription() {
        let collector = LineCollector()
        let target = TestTarget(headers: ["Authorization": "Bearer \(secret)", "X-Visible": "seen"])
        plainLogger(collector, .default).didReceive(.failure(.underlying(URLError(.timedOut), nil)), target: target)
        XCTAssertFalse(collector.text.contains(secret), collector.text)
        XCTAssertTrue(collector.text.contains(#""Authorization": "<redacted>""#), collector.text)
        XCTAssertTrue(collector.text.contains("seen"), collector.text)
    }

    /// The line for an answer without an `HTTPURLResponse` (a stub's `.networkResponse`) names
    /// the target too, and masks its description as the error line does.
    func testEmptyResponseLineMasksHiddenValuesInTheTargetsDescription() {
        let collector = LineCollector()
        let target = TestTarget(headers: ["Authorization": "Bearer \(secret)", "X-Visible": "seen"])
        let provider = NetworkProvider<TestTarget>(stubClosure: NetworkProvider.immediatelyStub, plugins: [plainLogger(collector, .default)])
        provider.request(target) { _ in }
        XCTAssertTrue(collector.text.contains("Response: Received empty network response for"), collector.text)
        XCTAssertFalse(collector.text.contains(secret), collector.text)
        XCTAssertTrue(collector.text.contains("seen"), collector.text)
    }

    func testCurlFormIsAlamofiresAndRedacted() {
        let logger = NetworkLoggerPlugin(configuration: .init(output: { _, _ in }, redactedKeys: ["api_key", "token"]))
        var request = URLRequest(url: URL(string: "http://127.0.0.1:9/p?api_key=\(secret)&q=it's")!)
        request.httpMethod = "PUT"
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        request.setValue("say \"hi\"", forHTTPHeaderField: "X-One")
        request.httpBody = Data(#"{"token":"\#(secret)","a":"b"}"#.utf8)
        XCTAssertEqual(logger.curl(request), """
        $ curl -v \\
        \t-X PUT \\
        \t-H "Authorization: <redacted>" \\
        \t-H "X-One: say \\"hi\\"" \\
        \t-d "{\\"token\\":\\"<redacted>\\",\\"a\\":\\"b\\"}" \\
        \t"http://127.0.0.1:9/p?api_key=<redacted>&q=it's"
        """)
        XCTAssertTrue(logger.curl(URLRequest(url: URL(string: "http://127.0.0.1/")!)).hasPrefix("$ curl -v \\\n\t-X GET \\\n\t\"http"))
        let collector = LineCollector()
        let curlLogger = NetworkLoggerPlugin(configuration: .init(formatter: .init(entry: { identifier, message, _ in "\(identifier): \(message)" }),
                                                                  output: collector.output, logOptions: [.formatRequestAscURL],
                                                                  redactedKeys: ["api_key", "token"]))
        curlLogger.willSend(PreparedRequest(request: request), target: TestTarget())
        XCTAssertEqual(collector.lines, ["Request: " + logger.curl(request)])
    }

    func testRedactionCanBeTurnedOff() {
        let collector = LineCollector()
        let logger = NetworkLoggerPlugin(configuration: .init(output: collector.output, redactedHeaders: []))
        logger.willSend(PreparedRequest(request: secretRequest(body: nil, contentType: "text/plain")), target: TestTarget())
        XCTAssertTrue(collector.text.contains("Bearer \(secret)"))
    }

    func testRedactorPieces() {
        let redactor = Redactor(names: ["Key"])
        XCTAssertEqual(redactor.url("http://h/p?key=1&other=2#key=3"), "http://h/p?key=<redacted>&other=2#key=3")
        XCTAssertEqual(redactor.url("http://h/p"), "http://h/p")
        XCTAssertEqual(redactor.formText("KEY%5B%5D=1&keys=2"), "KEY%5B%5D=<redacted>&keys=2")
        XCTAssertEqual(redactor.body(Data([0xFF, 0xFE]), contentType: nil), "<2 bytes>")
        XCTAssertEqual(redactor.body(Data(#"[{"key":1}]"#.utf8), contentType: nil), #"[{"key":"<redacted>"}]"#)
    }

    func testJSONBodiesAreLoggedAsSentWithHiddenValuesMaskedInPlace() {
        let redactor = Redactor(names: ["password", "token"])
        let sent = "{ \"zeta\": 1.50,\n  \"password\" : \"\(secret)\", \"alpha\":[ true, null ],\n  \"nested\": {\"token\": {\"deep\": [\"\(secret)\"]}, \"b\": \"\\u00e9\\\"\"} }"
        XCTAssertEqual(redactor.body(Data(sent.utf8), contentType: "application/json"),
                       "{ \"zeta\": 1.50,\n  \"password\" : \"<redacted>\", \"alpha\":[ true, null ],\n  \"nested\": {\"token\": \"<redacted>\", \"b\": \"\\u00e9\\\"\"} }")
        // A key spelled with an escape is still the key it decodes to.
        XCTAssertEqual(redactor.body(Data(#"[{"pass\u0077ord":"x"},{"k":"v"}]"#.utf8), contentType: nil),
                       #"[{"pass\u0077ord":"<redacted>"},{"k":"v"}]"#)
        XCTAssertEqual(redactor.body(Data(#"{"password":"a"} trailing"#.utf8), contentType: nil), #"{"password":"a"} trailing"#,
                       "not JSON: logged as text (the form rule does not apply to text with spaces)")
    }

    func testJSONInUTF16IsStillMasked() throws {
        let redactor = Redactor(names: ["password"])
        let utf16 = try XCTUnwrap(#"{"password":"\#(secret)","user":"ann"}"#.data(using: .utf16LittleEndian))
        let text = redactor.body(utf16, contentType: "application/json")
        XCTAssertFalse(text.contains(secret), text)
        XCTAssertTrue(text.contains(#""user":"ann""#), text)
    }

    func testRequestAndResponseBodiesKeepTheirBytesInTheLog() throws {
        let collector = LineCollector()
        let body = "{\"b\": 2, \"a\": [1, 2],  \"password\":\"\(secret)\"}"
        let request = try endpoint(.requestData(Data(body.utf8)), method: .post).urlRequest()
        let logger = NetworkLoggerPlugin(configuration: .init(
            formatter: .init(entry: { identifier, message, _ in "\(identifier): \(message)" }),
            output: collector.output, logOptions: [.requestBody, .successResponseBody], redactedKeys: ["password"]))
        logger.willSend(PreparedRequest(request: request), target: TestTarget())
        let response = Response(statusCode: 200, data: Data(#"{"z":0,  "password": "\#(secret)"}"#.utf8), request: request, response: nil)
        logger.didReceive(.success(response), target: TestTarget())
        XCTAssertTrue(collector.lines.contains(#"Request Body: {"b": 2, "a": [1, 2],  "password":"<redacted>"}"#), collector.text)
        XCTAssertTrue(collector.lines.contains(#"Response Body: {"z":0,  "password": "<redacted>"}"#), collector.text)
    }

    /// The logger's `Request Headers` line for one stubbed request through `transport`.
    private func loggedHeaders(through transport: any HTTPTransport, url: String) throws -> String {
        let collector = LineCollector()
        let logger = NetworkLoggerPlugin(configuration: .init(formatter: .init(entry: { identifier, message, _ in "\(identifier): \(message)" }),
                                                              output: collector.output, logOptions: [.requestHeaders]))
        let target = TestTarget(baseURL: try XCTUnwrap(URL(string: url)), headers: ["X-Own": "1"])
        let provider = NetworkProvider<TestTarget>(stubClosure: NetworkProvider.immediatelyStub, transport: transport, plugins: [logger])
        let answered = Recorder<Int>()
        provider.request(target) { _ in answered.append(1) }
        XCTAssertTrue(waitUntil { answered.count == 1 })
        return try XCTUnwrap(collector.lines.first { $0.hasPrefix("Request Headers: ") }, collector.text)
    }

    func testRequestHeadersIncludeWhatTheSessionAdds() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["User-Agent": "Viewer/1.0", "Accept-Language": "fr-CH, en;q=0.8"]
        let session = try loggedHeaders(through: URLSessionTransport(configuration: configuration), url: "https://api.example.com")
        XCTAssertEqual(session, #"Request Headers: ["Accept-Language": "fr-CH, en;q=0.8", "User-Agent": "Viewer/1.0", "X-Own": "1"]"#)
        let socket = try loggedHeaders(through: SocketTransport(session: SessionOptions(headers: ["Accept-Encoding": "gzip, deflate", "User-Agent": "App/2"])),
                                       url: "http://127.0.0.1:9")
        XCTAssertEqual(socket, #"Request Headers: ["Accept-Encoding": "gzip, deflate", "User-Agent": "App/2", "X-Own": "1"]"#)
        let standard = try loggedHeaders(through: SocketTransport(), url: "http://127.0.0.1:9")
        for name in ["Accept-Encoding", "Accept-Language", "User-Agent"] {
            XCTAssertTrue(standard.contains("\"\(name)\": \"\(DefaultHeaders.standard[name] ?? "?")\""), standard)
        }
    }

    private struct HeaderEcho: Decodable {
        let headers: [String: String]
    }

    func testSocketTransportSendsTheSessionHeadersItReports() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let transport = SocketTransport()
        let request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
        let answers = Recorder<Result<Response, ProviderError>>()
        _ = transport.send(request, progress: nil) { answers.append($0) }
        XCTAssertTrue(waitUntil { answers.count == 1 })
        let echo = try JSONDecoder().decode(HeaderEcho.self, from: try XCTUnwrap(answers.values.first).get().data)
        for (name, value) in transport.sessionHeaders(for: request) {
            XCTAssertEqual(echo.headers.first { $0.key.lowercased() == name.lowercased() }?.value, value, "\(echo.headers)")
        }
        XCTAssertFalse(transport.sessionHeaders(for: request).isEmpty)
        var own = request
        own.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        XCTAssertNil(transport.sessionHeaders(for: own)["Accept-Encoding"], "a field the request sets is not the session's")
        XCTAssertEqual(transport.sessionHeaders(for: own).count, transport.sessionHeaders(for: request).count - 1)
    }
}
