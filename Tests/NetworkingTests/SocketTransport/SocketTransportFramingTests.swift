import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import Locking
import Networking
import TestSupport
import XCTest

/// Request serialization and every response framing, against `FeedServer` and scripted bytes.
final class SocketTransportFramingTests: SocketTransportTestCase {
    private struct Echo: Decodable {
        let method: String
        let path: String
        let query: String
        let headers: [String: String]
        let body: String
    }

    private func echo(_ response: Response) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: response.data)
    }

    func testRequestCarriesMethodTargetHostHeadersAndBody() throws {
        var request = request("echo?a=1&b=x%20y", method: "POST", body: Data("payload".utf8))
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        request.setValue("yes", forHTTPHeaderField: "X-Custom")
        let (outcome, result) = try send(request)
        let response = try result.get()
        let echoed = try echo(response)
        XCTAssertEqual(echoed.method, "POST")
        XCTAssertEqual(echoed.path, "/echo")
        XCTAssertEqual(echoed.query, "a=1&b=x%20y")
        XCTAssertEqual(echoed.headers["Host"], "127.0.0.1:\(server.port)")
        XCTAssertEqual(echoed.headers["Content-Length"], "7")
        XCTAssertEqual(echoed.headers["X-Custom"], "yes")
        XCTAssertEqual(Data(base64Encoded: echoed.body), Data("payload".utf8))
        XCTAssertEqual(response.headerValue("content-type")?.hasPrefix("application/json"), true)
        XCTAssertEqual(response.request?.url?.query, "a=1&b=x%20y")
        XCTAssertEqual(outcome.progress.withLock { $0.last }, 1)
    }

    func testTheHTTPURLResponseIsBuiltOnceFromTheHeadReceived() throws {
        let response = try send(request("echo?z=1")).1.get()
        let copy = response
        let seen = Lock<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            guard let http = copy.response else { return }
            seen.withLock { $0.append(ObjectIdentifier(http)) }
        }
        let http = try XCTUnwrap(response.response)
        let identifiers = seen.withLock { $0 }
        XCTAssertEqual(identifiers.count, 8)
        XCTAssertEqual(Set(identifiers), [ObjectIdentifier(http)], "every read, from any thread, gives the one instance")
        XCTAssertEqual(http.statusCode, 200)
        XCTAssertEqual(http.url, url("echo?z=1"))
        XCTAssertEqual(http.value(forHTTPHeaderField: "server"), "FeedServer")
        XCTAssertEqual(http.expectedContentLength, Int64(response.data.count))
        XCTAssertEqual(response, copy)
    }

    func testEveryRequestTaskBodyIsSent() throws {
        let targets: [(RequestTask, Data)] = [
            (.requestData(Data([0, 1, 2, 255])), Data([0, 1, 2, 255])),
            (.requestJSONEncodable(["k": "v"]), Data(#"{"k":"v"}"#.utf8)),
            (.requestParameters(parameters: ["q": "1"], encoding: URLEncoding.httpBody), Data("q=1".utf8)),
            (.requestCompositeData(bodyData: Data("raw".utf8), urlParameters: ["u": "2"]), Data("raw".utf8)),
        ]
        for (task, expected) in targets {
            let endpoint = Endpoint(url: url("echo").absoluteString, sampleResponseClosure: { .networkResponse(200, Data()) },
                                    method: .put, task: task, httpHeaderFields: nil)
            let response = try send(try endpoint.urlRequest()).1.get()
            let echoed = try echo(response)
            XCTAssertEqual(echoed.method, "PUT")
            XCTAssertEqual(Data(base64Encoded: echoed.body), expected, "\(task)")
            XCTAssertEqual(echoed.headers["Content-Length"], String(expected.count))
        }
        let stream = InputStream(data: Data("streamed".utf8))
        var streamed = request("echo", method: "POST")
        streamed.httpBodyStream = stream
        XCTAssertEqual(Data(base64Encoded: try echo(try send(streamed).1.get()).body), Data("streamed".utf8))
    }

    func testMultipartAndFileUploadsAreSent() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("socket-upload-\(UUID().uuidString)")
        try Data("file contents".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var upload = request("echo", method: "POST")
        upload.httpBodyStream = InputStream(url: file)
        XCTAssertEqual(Data(base64Encoded: try echo(try send(upload).1.get()).body), Data("file contents".utf8))
        let form = MultipartFormData(parts: [MultipartFormBodyPart(provider: .data(Data("part".utf8)), name: "field")])
        var multipart = request("echo", method: "POST")
        multipart.httpBody = try form.encode()
        multipart.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        let echoed = try echo(try send(multipart).1.get())
        XCTAssertTrue(echoed.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        let body = try XCTUnwrap(Data(base64Encoded: echoed.body))
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("name=\"field\""))
    }

    func testChunkedBodyWithExtensionsAndTrailersIsDecodedAndTheConnectionKept() throws {
        let response = try get("chunked").get()
        XCTAssertEqual(String(decoding: response.data, as: UTF8.self), "Hello, chunked world! This body arrives in four chunks.")
        XCTAssertEqual(try get("chunked").get().data, response.data)
        XCTAssertEqual(server.connectionCount, 1)
    }

    func testHeadHasNoBodyAndKeepsTheConnection() throws {
        let head = try send(request("bytes/100", method: "HEAD")).1.get()
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertEqual(head.headerValue("Content-Length"), "100")
        XCTAssertTrue(head.data.isEmpty)
        XCTAssertEqual(try get("bytes/100").get().data, Data((0..<100).map { UInt8($0) }))
        XCTAssertEqual(server.connectionCount, 1)
    }

    func testNoContentHasNoBodyAndKeepsTheConnection() throws {
        let response = try get("status/204?body=empty").get()
        XCTAssertEqual(response.statusCode, 204)
        XCTAssertTrue(response.data.isEmpty)
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(server.connectionCount, 1)
    }

    /// A 304 has no body even when it repeats the resource's `Content-Length`; the next answer follows at once.
    func testNotModifiedHasNoBodyWhateverItsContentLength() throws {
        let scripted = try ScriptedHTTPServer { _, number, _ in
            number == 1
                ? .respond(Array("HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\nETag: \"v1\"\r\n\r\n".utf8))
                : .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext".utf8))
        }
        defer { scripted.stop() }
        let notModified = try send(URLRequest(url: scripted.url("/cached"))).1.get()
        XCTAssertEqual(notModified.statusCode, 304)
        XCTAssertTrue(notModified.data.isEmpty)
        XCTAssertEqual(try send(URLRequest(url: scripted.url("/next"))).1.get().data, Data("next".utf8))
        XCTAssertEqual(scripted.connectionCount, 1)
    }

    func testLargeBodyArrivesWhole() throws {
        let response = try get("bytes/3000000").get()
        XCTAssertEqual(response.data.count, 3_000_000)
        XCTAssertEqual(response.data.last, UInt8((3_000_000 - 1) % 256))
    }

    func testCloseDelimitedBodyEndsAtTheClose() throws {
        let scripted = try ScriptedHTTPServer { _, _, _ in .respondAndClose(Array("HTTP/1.1 200 OK\r\nX-A: 1\r\nX-A: 2\r\n\r\nuntil close".utf8)) }
        defer { scripted.stop() }
        let response = try send(URLRequest(url: scripted.url("/"))).1.get()
        XCTAssertEqual(String(decoding: response.data, as: UTF8.self), "until close")
        XCTAssertEqual(response.headerValue("x-a"), "1, 2")
        XCTAssertEqual(transport.idleConnectionCount, 0)
    }

    func testInterimResponsesAreSkipped() throws {
        let bytes = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"
        let scripted = try ScriptedHTTPServer { _, _, _ in .respond(Array(bytes.utf8)) }
        defer { scripted.stop() }
        let response = try send(URLRequest(url: scripted.url("/"))).1.get()
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(response.data, Data("ok".utf8))
    }

    func testHeadOverTheHeaderLimitIsABadServerResponse() throws {
        transport = SocketTransport(configuration: .init(maximumHeaderBytes: 1024))
        let bytes = "HTTP/1.1 200 OK\r\nX-Big: \(String(repeating: "b", count: 4000))\r\nContent-Length: 0\r\n\r\n"
        let scripted = try ScriptedHTTPServer { _, _, _ in .respondAndClose(Array(bytes.utf8)) }
        defer { scripted.stop() }
        let error = try failure(send(URLRequest(url: scripted.url("/"))).1)
        XCTAssertEqual(error.urlError?.code, .badServerResponse, "\(error)")
        XCTAssertTrue(error.isBadResponse)
    }

    func testMalformedChunkIsABadServerResponse() throws {
        let bytes = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"
        let scripted = try ScriptedHTTPServer { _, _, _ in .respondAndClose(Array(bytes.utf8)) }
        defer { scripted.stop() }
        let error = try failure(send(URLRequest(url: scripted.url("/"))).1)
        XCTAssertEqual(error.urlError?.code, .badServerResponse, "\(error)")
        XCTAssertEqual(error.response?.statusCode, 200)
    }

    func testRequestTargetIsThePathAndQueryAsTheURLEncodesThem() throws {
        let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
        let scripted = try ScriptedHTTPServer { _, _, _ in .respond(ok) }
        defer { scripted.stop() }
        let base = scripted.url("/base/")
        let cases: [(URL?, String)] = [
            (URL(string: "a%20b;p=1/c%2Fd?x=%2F&y=%20#fragment", relativeTo: base), "/base/a%20b;p=1/c%2Fd?x=%2F&y=%20"),
            (URL(string: "http://127.0.0.1:\(scripted.port)"), "/"),
            (URL(string: "http://127.0.0.1:\(scripted.port)/q?"), "/q?"),
            (URL(string: "http://user:secret@127.0.0.1:\(scripted.port)/who"), "/who"),
        ]
        for (url, _) in cases {
            _ = try send(URLRequest(url: try XCTUnwrap(url))).1.get()
        }
        XCTAssertEqual(scripted.requests.map(\.head.target), cases.map(\.1))
        XCTAssertEqual(Set(scripted.requests.compactMap { $0.head.headers["Host"] }), ["127.0.0.1:\(scripted.port)"])
    }

    func testAURLWithoutAHostOrWithABadPortIsABadURL() throws {
        for text in ["http:/no-host", "http:///path", "http://127.0.0.1:70000/", "http://127.0.0.1:0/"] {
            let error = try failure(send(URLRequest(url: try XCTUnwrap(URL(string: text)))).1)
            XCTAssertEqual(error.urlError?.code, .badURL, "\(text): \(error)")
            // Converted once, the client's error kept under it.
            let urlError = try XCTUnwrap(error.underlyingError as? URLError, "\(text): \(error)")
            guard case .badURL? = urlError.errorUserInfo[NSUnderlyingErrorKey] as? HTTPClientError else {
                return XCTFail("\(text): the client's badURL is under the URLError: \(urlError.errorUserInfo)")
            }
        }
    }

    func testLocalhostIsResolvedByName() throws {
        let response = try send(URLRequest(url: try XCTUnwrap(URL(string: "http://localhost:\(server.port)/echo")))).1.get()
        XCTAssertEqual(try echo(response).headers["Host"], "localhost:\(server.port)")
    }
}
