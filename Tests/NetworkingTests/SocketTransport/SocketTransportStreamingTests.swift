import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import EventLoopIO
import Synchronization
import TestSupport
import XCTest

/// `SocketTransport.send(_:options:completion:)`: bodies streamed from data, files and streams,
/// responses written to a file as they arrive, progress both ways, and an upload answered early.
final class SocketTransportStreamingTests: SocketTransportTestCase {
    override var serverConfiguration: FeedServer.Configuration {
        var configuration = FeedServer.Configuration()
        configuration.maxBodyBytes = 4 * 1_048_576
        return configuration
    }

    private func send(_ request: URLRequest, options: TransportOptions) throws -> Result<Response, ProviderError> {
        let outcome = Outcome()
        _ = transport.send(request, options: options, completion: outcome.record)
        XCTAssertEqual(outcome.done.wait(timeout: .now() + 30), .success, "no answer")
        XCTAssertEqual(outcome.count, 1)
        return try XCTUnwrap(outcome.first)
    }

    private func echoed(_ result: Result<Response, ProviderError>) throws -> (body: Data, headers: [String: String]) {
        let response = try result.get()
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        let body = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(object["body"] as? String)))
        return (body, try XCTUnwrap(object["headers"] as? [String: String]))
    }

    /// `count` bytes of BulkBytes' pattern (it repeats every 64 KiB).
    private static func payload(_ count: Int) -> Data { Data(BulkBytes.make(count)) }

    private func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("SocketTransportStreamingTests-\(UUID().uuidString)-\(name)")
    }

    func testAStreamOfUnknownLengthIsSentChunkedWithUploadProgress() throws {
        let body = Self.payload(700_000)
        let sent = Lock<[Int64]>([])
        let options = TransportOptions(upload: .stream({ InputStream(data: body) }, length: nil),
                                       uploadProgress: { done, total in
                                           XCTAssertNil(total)
                                           sent.withLock { $0.append(done) }
                                       })
        let (echoedBody, headers) = try echoed(try send(request("/echo", method: "POST"), options: options))
        XCTAssertEqual(echoedBody, body)
        XCTAssertEqual(headers["Transfer-Encoding"], "chunked")
        XCTAssertNil(headers["Content-Length"])
        let progress = sent.withLock { $0 }
        XCTAssertGreaterThan(progress.count, 1)
        XCTAssertEqual(progress, progress.sorted())
        XCTAssertEqual(progress.last, Int64(body.count))
    }

    /// A caller's stream is made and read off the event loops (on the exchange's I/O queue),
    /// so a slow stream or disk never stalls other requests.
    func testAStreamIsMadeAndReadOffTheLoops() throws {
        let body = Self.payload(300_000)
        let onLoop = Recorder<Bool>()
        let options = TransportOptions(upload: .stream({
            onLoop.append(EventLoop.isOnAnyLoopThread)
            return ThreadProbeStream(data: body) { onLoop.append(EventLoop.isOnAnyLoopThread) }
        }, length: Int64(body.count)))
        let (echoedBody, _) = try echoed(try send(request("/echo", method: "POST"), options: options))
        XCTAssertEqual(echoedBody, body)
        XCTAssertGreaterThan(onLoop.count, 2, "the factory and several reads")
        XCTAssertEqual(onLoop.values.filter { $0 }.count, 0, "calls on a loop thread: \(onLoop.values)")
    }

    func testAStreamOfKnownLengthAndAFileAreSentWithContentLength() throws {
        let body = Self.payload(300_000)
        let file = temporaryFile("upload.bin")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let totals = Lock<Set<Int64?>>([])
        for source in [UploadSource.stream({ InputStream(data: body) }, length: Int64(body.count)), .file(file), .data(body)] {
            let options = TransportOptions(upload: source, uploadProgress: { _, total in totals.withLock { _ = $0.insert(total) } })
            let (echoedBody, headers) = try echoed(try send(request("/echo", method: "PUT"), options: options))
            XCTAssertEqual(echoedBody, body)
            XCTAssertEqual(headers["Content-Length"], String(body.count))
        }
        XCTAssertEqual(totals.withLock { $0 }, [Int64(body.count)])
    }

    func testARedirectThatKeepsTheMethodSendsAFreshStream() throws {
        let body = Self.payload(10_000)
        let made = Atomic<Int>(0)
        let source = UploadSource.stream({
            made.add(1, ordering: .relaxed)
            return InputStream(data: body)
        }, length: nil)
        let scripted = try ScriptedHTTPServer { _, _, head in
            head.path == "/first"
                ? .respond(Array("HTTP/1.1 307 Temporary Redirect\r\nLocation: /second\r\nContent-Length: 0\r\n\r\n".utf8))
                : .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
        }
        defer { scripted.stop() }
        var put = URLRequest(url: scripted.url("/first"))
        put.httpMethod = "PUT"
        let response = try send(put, options: TransportOptions(upload: source)).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(made.load(ordering: .relaxed), 2)
        XCTAssertEqual(scripted.requests.map(\.head.path), ["/first", "/second"])
        XCTAssertEqual(scripted.requests.map { Data($0.body) }, [body, body])
    }

    func testADownloadAfterARedirectHoldsOnlyTheFinalBody() throws {
        let file = temporaryFile("redirected.bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let scripted = try ScriptedHTTPServer { _, _, head in
            head.path == "/old"
                ? .respond(Array("HTTP/1.1 302 Found\r\nLocation: /new\r\nContent-Length: 13\r\n\r\nmoved to /new".utf8))
                : .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\npayload".utf8))
        }
        defer { scripted.stop() }
        let fractions = Lock<[Double]>([])
        let options = TransportOptions(downloadFile: file, downloadProgress: { value in fractions.withLock { $0.append(value) } })
        let response = try send(URLRequest(url: scripted.url("/old")), options: options).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.fileURL, file)
        XCTAssertEqual(scripted.requests.map(\.head.path), ["/old", "/new"])
        XCTAssertEqual(String(decoding: try Data(contentsOf: file), as: UTF8.self), "payload")
        XCTAssertEqual(fractions.withLock { $0 }.last, 1)
        XCTAssertEqual(fractions.withLock { $0 }, fractions.withLock { $0 }.sorted(), "progress of the final body only")
    }

    func testADownloadIsWrittenToTheFileWithProgress() throws {
        let file = temporaryFile("download.bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let fractions = Lock<[Double]>([])
        let options = TransportOptions(downloadFile: file, downloadProgress: { value in fractions.withLock { $0.append(value) } })
        let response = try send(request("/bytes/1000000"), options: options).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.data, Data())
        XCTAssertEqual(response.fileURL, file)
        let written = try Data(contentsOf: file)
        XCTAssertEqual(written.count, 1_000_000)
        XCTAssertEqual(Array(written.prefix(300)), (0..<300).map { UInt8(truncatingIfNeeded: $0) })
        let progress = fractions.withLock { $0 }
        XCTAssertEqual(progress.last, 1)
        XCTAssertEqual(progress, progress.sorted())
    }

    /// A download file that cannot be created fails the request with the file error.
    func testADownloadFileThatCannotBeCreatedFails() throws {
        let file = temporaryFile("absent/body.bin")
        let result = try send(request("/bytes/5000"), options: TransportOptions(downloadFile: file))
        guard case .failure(.underlying(let error, _)) = result else { return XCTFail("expected a file failure, got \(result)") }
        XCTAssertTrue(error is CocoaError, "a file error: \(error)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    /// A 60 MB body goes to the file without being held: resident memory grows far less than 60 MB.
    func testASixtyMegabyteDownloadIsNeverHeldInMemory() throws {
        guard let before = ResidentMemory.current() else { throw XCTSkip("no /proc/self/statm on this system") }
        let file = temporaryFile("sixty.bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let peak = Atomic<Int>(before)
        let options = TransportOptions(downloadFile: file, downloadProgress: { _ in
            if let now = ResidentMemory.current() { peak.max(now, ordering: .relaxed) }
        })
        let response = try send(request("/bytes/\(60 * 1_048_576)"), options: options).get()
        XCTAssertEqual(response.fileURL, file)
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        XCTAssertEqual(size, 60 * 1_048_576)
        let growth = peak.load(ordering: .relaxed) - before
        XCTAssertLessThan(growth, 30 * 1_048_576, "resident memory grew by \(growth) bytes during a 60 MB download")
    }

    /// The server answers 413 to a body over its limit before reading it, then closes: the
    /// transport reports that response instead of the failed write.
    func testAnUploadAnsweredEarlyReportsTheResponse() throws {
        let body = Self.payload(16 * 1_048_576)
        let result = try send(request("/echo", method: "POST"), options: TransportOptions(upload: .data(body)))
        let response = try result.get()
        XCTAssertEqual(response.statusCode, 413)
        XCTAssertTrue(String(decoding: response.data, as: UTF8.self).contains("E413"))
    }

    func testAFileThatCannotBeOpenedFailsWithoutSending() throws {
        let missing = temporaryFile("missing.bin")
        let result = try send(request("/echo", method: "POST"), options: TransportOptions(upload: .file(missing)))
        XCTAssertThrowsError(try result.get())
        XCTAssertEqual(server.requestCount, 0)
    }
}

/// A server that reads only the head of an upload, answers 501 and closes: the transport's
/// write fails (reset or broken pipe) and the answer already on the socket is reported.
final class SocketTransportEarlyAnswerTests: LeakCheckingTestCase {
    func testAnAnswerBeforeTheBodyIsReadIsReportedWhenTheWriteFails() throws {
        let answer = Data("HTTP/1.1 501 Not Implemented\r\nContent-Length: 4\r\nConnection: close\r\n\r\nnope".utf8)
        let listener = try LoopbackListener(.respond(answer))
        defer { listener.stop() }
        let transport = SocketTransport()
        defer { transport.close() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/upload")!)
        request.httpMethod = "POST"
        let done = DispatchSemaphore(value: 0)
        let result = Lock<Result<Response, ProviderError>?>(nil)
        let body = Data(repeating: 7, count: 32 * 1_048_576)
        _ = transport.send(request, options: TransportOptions(upload: .data(body))) { value in
            result.withLock { $0 = value }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        let response = try XCTUnwrap(result.withLock { $0 }).get()
        XCTAssertEqual(response.statusCode, 501)
        XCTAssertEqual(response.data, Data("nope".utf8))
    }
}

/// A stream over bytes that reports each read.
private final class ThreadProbeStream: InputStream {
    private let onRead: @Sendable () -> Void

    init(data: Data, onRead: @escaping @Sendable () -> Void) {
        self.onRead = onRead
        super.init(data: data)
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        onRead()
        return super.read(buffer, maxLength: len)
    }
}
