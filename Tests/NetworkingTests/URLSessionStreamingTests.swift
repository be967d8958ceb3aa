import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

/// `URLSessionTransport.send(_:options:completion:)` against the loopback server: uploads from
/// data, files and streams with progress; response bodies written to a file.
final class URLSessionStreamingTests: FeedServerTestCase {
    private struct EchoedRequest: Decodable {
        let headers: [String: String]
        let body: String
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    override var serverConfiguration: FeedServer.Configuration { .init(maxBodyBytes: 4_000_000) }

    private func post(_ options: TransportOptions, path: String = "echo") -> Result<Response, ProviderError>? {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        let results = Recorder<Result<Response, ProviderError>>()
        _ = URLSessionTransport(configuration: .ephemeral).send(request, options: options) { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 20) { results.count == 1 })
        return results.values.first
    }

    private static func stagedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? [])
            .filter { $0.hasPrefix("networking-upload-") }
    }

    func testEachUploadSourceArrivesWithItsLengthAndReportsProgress() throws {
        let payload = Data(BulkBytes.make(1_500_000))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-\(UUID().uuidString)")
        try payload.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stagedBefore = Set(Self.stagedFiles())
        let sources: [(String, UploadSource)] = [
            ("data", .data(payload)), ("file", .file(file)),
            ("stream", .stream({ InputStream(data: payload) }, length: Int64(payload.count))),
            ("stream without length", .stream({ InputStream(url: file) }, length: nil)),
        ]
        for (label, source) in sources {
            let progress = Recorder<String>()
            let options = TransportOptions(upload: source, uploadProgress: { sent, total in progress.append("\(sent)/\(total ?? -1)") })
            let response = try XCTUnwrap(post(options)?.get(), label)
            let echoed = try JSONDecoder().decode(EchoedRequest.self, from: response.data)
            XCTAssertEqual(Data(base64Encoded: echoed.body), payload, label)
            XCTAssertEqual(echoed.header("Content-Length"), String(payload.count), label)
            XCTAssertNil(echoed.header("Transfer-Encoding"), label)
            XCTAssertEqual(progress.values.last, "\(payload.count)/\(payload.count)", label)
        }
        XCTAssertTrue(waitUntil { Set(Self.stagedFiles()).subtracting(stagedBefore).isEmpty }, "staged bodies are removed")
    }

    func testAStreamThatCannotBeMadeFails() {
        let result = post(TransportOptions(upload: .stream({ nil }, length: 3)))
        guard case .failure(.underlying(let error as URLError, nil))? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(error.code, .cannotOpenFile)
        XCTAssertEqual(server.requestCount(path: "/echo"), 0)
    }

    func testCancellingWhileStagingReportsNothingAndLeavesNoFile() throws {
        let stagedBefore = Set(Self.stagedFiles())
        var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
        request.httpMethod = "POST"
        let results = Recorder<String>()
        // The body comes from a pipe, so staging waits in its read, file created, until the
        // pipe is closed: the cancel lands while staging (a task started and cancelled at once
        // can stop the process inside FoundationNetworking).
        let pipe = Pipe()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let transport = URLSessionTransport(configuration: .ephemeral)
        let call = transport.send(
            request, options: TransportOptions(upload: .stream({ InputStream(fileAtPath: path) }, length: nil))) { _ in results.append("answered") }
        XCTAssertTrue(waitUntil { !Set(Self.stagedFiles()).subtracting(stagedBefore).isEmpty }, "staging started")
        call.cancel()
        XCTAssertTrue(call.isCancelled)
        try pipe.fileHandleForWriting.close()
        // Removing the staged file is the last thing staging does, after it decided whether to
        // report or to start a task; a task's end would reach the session's serial delegate
        // queue before the later request's.
        XCTAssertTrue(waitUntil { Set(Self.stagedFiles()).subtracting(stagedBefore).isEmpty }, "the staged file is removed")
        let later = Recorder<Int>()
        _ = transport.send(request, options: TransportOptions(upload: .data(Data("later".utf8)))) { later.append((try? $0.get().statusCode) ?? 0) }
        XCTAssertTrue(waitUntil(timeout: 20) { later.count == 1 })
        XCTAssertEqual(later.values, [200])
        XCTAssertEqual(results.count, 0)
        try pipe.fileHandleForReading.close()
    }

    func testTheBodyIsWrittenToTheDownloadFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let fractions = Recorder<Double>()
        let results = Recorder<Result<Response, ProviderError>>()
        let transport = URLSessionTransport(configuration: .ephemeral, maximumResponseSize: 1000)
        _ = transport.send(URLRequest(url: server.baseURL.appendingPathComponent("bytes/200000")),
                           options: TransportOptions(downloadFile: file, downloadProgress: { fractions.append($0) })) { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 20) { results.count == 1 })
        let response = try XCTUnwrap(results.values.first?.get())
        XCTAssertEqual(response.fileURL, file)
        XCTAssertEqual(response.data, Data())
        XCTAssertEqual(try Data(contentsOf: file), Data(BulkBytes.counting(200_000)),
                       "the 1000-byte in-memory limit does not apply to a file")
        XCTAssertEqual(fractions.values.last, 1)
        let empty = Recorder<Result<Response, ProviderError>>()
        _ = transport.send(URLRequest(url: server.baseURL.appendingPathComponent("bytes/0")),
                           options: TransportOptions(downloadFile: file)) { empty.append($0) }
        XCTAssertTrue(waitUntil { empty.count == 1 })
        XCTAssertEqual(try Data(contentsOf: file), Data(), "an empty body truncates the file")
    }

    /// The body goes through a download task, whose finished file is moved to the download file:
    /// a file that cannot be put there fails the request with the file error and the response.
    func testADownloadFileThatCannotBeWrittenFailsWithTheResponse() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString)/body.bin")
        let leftBefore = Self.downloadTaskFiles()
        let results = Recorder<Result<Response, ProviderError>>()
        let transport = URLSessionTransport(configuration: .ephemeral)
        _ = transport.send(URLRequest(url: server.baseURL.appendingPathComponent("bytes/5000")),
                           options: TransportOptions(downloadFile: file)) { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 20) { results.count == 1 })
        guard case .failure(.underlying(let error, let response?))? = results.values.first else {
            return XCTFail("expected a file failure with the response, got \(results.values)")
        }
        XCTAssertTrue(error is CocoaError, "a file error: \(error)")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual(Self.downloadTaskFiles().subtracting(leftBefore), [], "the task's own file is not left behind")
    }

    /// The files FoundationNetworking's download tasks write (`<UUID>.tmp` in the temporary
    /// directory) that are there now.
    private static func downloadTaskFiles() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return Set(names.filter { $0.hasSuffix(".tmp") && UUID(uuidString: String($0.dropLast(4))) != nil })
    }

    func testDefaultTransportRoutesOptionsByScheme() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let results = Recorder<Result<Response, ProviderError>>()
        _ = DefaultTransport().send(URLRequest(url: server.baseURL.appendingPathComponent("bytes/1000")),
                                    options: TransportOptions(downloadFile: file)) { results.append($0) }
        XCTAssertTrue(waitUntil { results.count == 1 })
        XCTAssertEqual(try results.values.first?.get().fileURL, file)
        XCTAssertEqual(try Data(contentsOf: file).count, 1000)
        let refused = Recorder<Result<Response, ProviderError>>()
        _ = DefaultTransport().send(URLRequest(url: URL(string: "https://127.0.0.1:1/")!), options: TransportOptions()) { refused.append($0) }
        XCTAssertTrue(waitUntil(timeout: 10) { refused.count == 1 })
        guard case .failure(.underlying(let error, nil))? = refused.values.first else { return XCTFail("\(refused.values)") }
        if (try? TLSLibrary.load()) != nil {
            guard case .cannotConnect(_, 1, _)? = error as? TransportError else { return XCTFail("https went through SocketTransport: \(error)") }
        } else {
            XCTAssertEqual((error as? URLError)?.code, .cannotConnectToHost, "https went through URLSession: \(error)")
        }
    }
}
