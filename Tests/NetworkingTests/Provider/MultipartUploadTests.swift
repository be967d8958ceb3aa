import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// Multipart bodies as Alamofire builds them, sent over real loopback sockets on both transports.
final class MultipartUploadTests: FeedServerTestCase {
    private struct EchoedRequest: Decodable {
        let method: String
        let query: String
        let headers: [String: String]
        let body: String

        var bodyData: Data { Data(base64Encoded: body) ?? Data() }
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    private var files: [URL] = []

    override var serverConfiguration: FeedServer.Configuration { .init(maxBodyBytes: 8_000_000) }

    override func tearDown() {
        for file in files { try? FileManager.default.removeItem(at: file) }
        super.tearDown()
    }

    private func file(_ name: String, _ contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        files.append(directory)
        return url
    }

    private var transports: [any HTTPTransport] { [DefaultTransport(), URLSessionTransport(configuration: .ephemeral)] }

    private func echo(_ task: RequestTask, method: HTTPMethod = .post, transport: any HTTPTransport) throws -> EchoedRequest {
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let results = Recorder<Result<Response, ProviderError>>()
        provider.request(route("echo", method: method, task: task)) { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 30) { results.count == 1 })
        let response = try XCTUnwrap(results.values.first).get()
        XCTAssertEqual(response.statusCode, 200, String(decoding: response.data, as: UTF8.self))
        return try JSONDecoder().decode(EchoedRequest.self, from: response.data)
    }

    func testAFormWithDataFileAndStreamPartsArrivesByteForByte() throws {
        let photo = try file("photo.JPG", Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }))
        for transport in transports {
            let form = MultipartFormData(boundary: "test.boundary.1")
            form.append(Data("Ann".utf8), name: "name")
            form.append(Data([0, 1, 2]), withName: "blob", fileName: "b.bin", mimeType: "application/x-blob")
            form.append(photo, withName: "photo")
            form.append(InputStream(data: Data("streamed part".utf8)), withLength: 13, name: "notes", fileName: "n.txt", mimeType: "text/plain")
            let expectedLength = form.contentLength
            let echoed = try echo(.uploadMultipartFormData(form), transport: transport)
            var expected = Data("--test.boundary.1\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn".utf8)
            expected += Data("\r\n--test.boundary.1\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"b.bin\"\r\nContent-Type: application/x-blob\r\n\r\n".utf8)
            expected += Data([0, 1, 2])
            expected += Data("\r\n--test.boundary.1\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.JPG\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            expected += try Data(contentsOf: photo)
            expected += Data("\r\n--test.boundary.1\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"n.txt\"\r\nContent-Type: text/plain\r\n\r\nstreamed part".utf8)
            expected += Data("\r\n--test.boundary.1--\r\n".utf8)
            XCTAssertEqual(echoed.bodyData, expected, "\(type(of: transport))")
            XCTAssertEqual(expectedLength, 3 + 3 + 200_000 + 13, "Alamofire's contentLength: the parts' data")
            XCTAssertEqual(echoed.header("Content-Type"), "multipart/form-data; boundary=test.boundary.1")
            XCTAssertEqual(echoed.method, "POST")
        }
    }

    func testMoyaPartsAndCompositeMultipartCarryTheirQuery() throws {
        let document = try file("doc.pdf", Data("%PDF-1.4 body".utf8))
        let parts = [MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "k"),
                     MultipartFormBodyPart(provider: .file(document), name: "doc")]
        for transport in transports {
            let echoed = try echo(.uploadCompositeMultipart(parts, urlParameters: ["album": 3]), method: .put, transport: transport)
            XCTAssertEqual(echoed.query, "album=3")
            let contentType = try XCTUnwrap(echoed.header("Content-Type"))
            let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
            let body = String(decoding: echoed.bodyData, as: UTF8.self)
            XCTAssertTrue(body.hasPrefix("--\(boundary)\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n"), body)
            XCTAssertTrue(body.contains("name=\"doc\"; filename=\"doc.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 body\r\n"), body)
            XCTAssertTrue(body.hasSuffix("\r\n--\(boundary)--\r\n"), body)

            let form = MultipartFormData(boundary: "fixed")
            form.append(Data("x".utf8), name: "only")
            let composite = try echo(.uploadCompositeMultipartFormData(form, urlParameters: ["flag": true]), transport: transport)
            XCTAssertEqual(composite.query, "flag=1")
            XCTAssertEqual(composite.bodyData, try form.encode())
        }
    }

    func testAFileUploadIsStreamedFromDisk() throws {
        let big = try file("big.bin", Data(BulkBytes.make(3_000_000)))
        for transport in transports {
            let echoed = try echo(.uploadFile(big), transport: transport)
            XCTAssertEqual(echoed.bodyData, try Data(contentsOf: big), "\(type(of: transport))")
        }
    }

    /// Moya stops the program for a multipart target whose method cannot carry a form; here the
    /// request fails before plugins see it, and nothing is sent.
    func testMultipartNeedsAMethodThatSupportsIt() {
        let log = Recorder<String>()
        let provider = NetworkProvider<ServerRoute>(transport: URLSessionTransport(), plugins: [RecordingPlugin(log: log)])
        let results = Recorder<Result<Response, ProviderError>>()
        let target = route("echo", method: .get,
                           task: .uploadMultipart([MultipartFormBodyPart(provider: .data(Data()), name: "a")]))
        provider.request(target) { results.append($0) }
        XCTAssertTrue(waitUntil { results.count == 1 })
        guard case .failure(.underlying(let error as MultipartEncodingFailure, nil))? = results.values.first else {
            return XCTFail("\(results.values)")
        }
        XCTAssertEqual(error, .methodDoesNotSupportMultipart("GET"))
        XCTAssertEqual(log.values, ["didReceive failure 0", "process"])
        XCTAssertEqual(server.requestCount(path: "/echo"), 0)
    }

    /// What Alamofire's upload request does: the form's Content-Type is on the request that
    /// `prepare` and `willSend` see, the body is built after them, and a part that cannot be read
    /// fails the request there (`ProviderError.underlying`), typed, with nothing sent. A file
    /// upload of a missing file fails the same way, with the file system's error.
    func testABodyThatCannotBeBuiltFailsAfterWillSendAndSendsNothing() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).png")
        let form = MultipartFormData(boundary: "fixed")
        form.append(missing, withName: "a")
        final class ContentTypes: PluginType, Sendable {
            let seen = Recorder<String>()
            func willSend(_ request: any RequestType, target: any TargetType) {
                seen.append(request.request?.value(forHTTPHeaderField: "Content-Type") ?? "none")
            }
        }
        let seen = ContentTypes()
        let provider = NetworkProvider<ServerRoute>(transport: DefaultTransport(), plugins: [seen])
        let results = Recorder<Result<Response, ProviderError>>()
        provider.request(route("echo", method: .post, task: .uploadMultipartFormData(form))) { results.append($0) }
        provider.request(route("echo", method: .post, task: .uploadFile(missing))) { results.append($0) }
        XCTAssertTrue(waitUntil { results.count == 2 })
        XCTAssertEqual(seen.seen.values, ["multipart/form-data; boundary=fixed", "none"])
        guard case .failure(.underlying(let formError as MultipartEncodingFailure, nil))? = results.values.first else {
            return XCTFail("\(results.values)")
        }
        XCTAssertEqual(formError, .fileNotReachable(missing))
        guard case .failure(.underlying(let fileError, nil))? = results.values.last else { return XCTFail("\(results.values)") }
        XCTAssertEqual((fileError as? CocoaError)?.code, .fileReadNoSuchFile, "\(fileError)")
        XCTAssertEqual(server.requestCount(path: "/echo"), 0)
    }

    /// A stubbed upload builds no body at all, as Moya's stubs: a missing file is no error there.
    func testAStubbedUploadOpensNothing() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).png")
        let provider = NetworkProvider<ServerRoute>(stubClosure: NetworkProvider.immediatelyStub)
        let results = Recorder<Result<Response, ProviderError>>()
        provider.request(route("echo", method: .post, task: .uploadFile(missing))) { results.append($0) }
        XCTAssertEqual(try XCTUnwrap(results.values.first).get().statusCode, 200)
    }

    func testUnreadableFilesFailWhenTheBodyIsBuilt() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).png")
        let form = MultipartFormData()
        form.append(missing, withName: "a")
        XCTAssertThrowsError(try form.encode()) { XCTAssertEqual($0 as? MultipartEncodingFailure, .fileNotReachable(missing)) }
        let directory = try file("x", Data()).deletingLastPathComponent()
        let dirForm = MultipartFormData()
        dirForm.append(directory, withName: "d")
        XCTAssertThrowsError(try dirForm.encode()) { XCTAssertEqual($0 as? MultipartEncodingFailure, .fileIsDirectory(directory)) }
        let remote = MultipartFormData()
        remote.append(URL(string: "https://example.test/a.png")!, withName: "r")
        XCTAssertThrowsError(try remote.encode()) { XCTAssertEqual($0 as? MultipartEncodingFailure, .fileURLInvalid(URL(string: "https://example.test/a.png")!)) }
        XCTAssertNoThrow(try endpoint(.uploadMultipartFormData(form), method: .post).urlRequest(), "as Moya's, urlRequest() builds no body")
    }

    func testMIMETypesFromExtensionsAndTheFallback() throws {
        XCTAssertEqual(MIMEType.forPathExtension("png"), "image/png")
        XCTAssertEqual(MIMEType.forPathExtension("JPEG"), "image/jpeg")
        XCTAssertEqual(MIMEType.forPathExtension("json"), "application/json")
        XCTAssertEqual(MIMEType.forPathExtension("txt"), "text/plain")
        XCTAssertEqual(MIMEType.forPathExtension("mp4"), "video/mp4")
        XCTAssertEqual(MIMEType.forPathExtension("weird"), "application/octet-stream")
        XCTAssertEqual(MIMEType.forPathExtension(""), "application/octet-stream")
        let odd = try file("data.xyz", Data("1".utf8))
        let form = MultipartFormData(boundary: "B")
        form.append(odd, withName: "f")
        XCTAssertEqual(String(decoding: try form.encode(), as: UTF8.self),
                       "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"data.xyz\"\r\nContent-Type: application/octet-stream\r\n\r\n1\r\n--B--\r\n")
        let named = MultipartFormData(boundary: "B")
        named.append(odd, withName: "f", fileName: "other.name", mimeType: "x/y")
        XCTAssertTrue(String(decoding: try named.encode(), as: UTF8.self).contains("filename=\"other.name\"\r\nContent-Type: x/y\r\n"))
    }

    func testAnEmptyFormIsEmptyAndLengthsAddUp() throws {
        let empty = MultipartFormData()
        XCTAssertEqual(try empty.encode(), Data())
        XCTAssertEqual(empty.contentLength, 0)
        XCTAssertTrue(empty.boundary.hasPrefix("networking.boundary."))
        XCTAssertNotEqual(MultipartFormData().boundary, MultipartFormData().boundary)
        let form = MultipartFormData()
        form.append(Data(count: 1000), name: "a")
        form.append(try file("f.txt", Data(count: 5000)), withName: "b")
        XCTAssertEqual(form.contentLength, 6000, "the parts' data, as Alamofire counts it")
        XCTAssertGreaterThan(UInt64(try form.encode().count), 6000, "the body adds boundaries and part headers")
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=\(form.boundary)")
    }
}
