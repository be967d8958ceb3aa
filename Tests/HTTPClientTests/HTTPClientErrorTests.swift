import FeedServer
import Foundation
import HTTPClient
import HTTPWire
import TestSupport
import XCTest

/// Each `HTTPClientError` the client produces from real sockets, real bytes and real files
/// (the deadlines, a refused port, cancellation and another scheme are in `HTTPClientTests`).
final class HTTPClientErrorTests: HTTPClientTestCase {
    private func failure(_ request: HTTPClientRequest, file: StaticString = #filePath, line: UInt = #line) throws -> HTTPClientError {
        let result = try executeWithCompletion(request)
        guard case .failure(let error) = result else {
            XCTFail("expected a failure, got \(result)", file: file, line: line)
            throw TestError(1)
        }
        return error
    }

    func testAURLWithAnUnusablePortIsBadURL() throws {
        let bad = try XCTUnwrap(URL(string: "http://127.0.0.1:0/echo"))
        guard case .badURL(let url) = try failure(HTTPClientRequest(url: bad)) else { return XCTFail("expected .badURL") }
        XCTAssertEqual(url, bad)
    }

    /// A host with a 64-character label: glibc's resolver refuses it before sending any query,
    /// so this stays off the network (as `URLSessionTransportTests` does for URLSession).
    func testAHostNameThatCannotResolveIsCannotFindHost() throws {
        let host = String(repeating: "a", count: 64) + ".invalid"
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://\(host)/echo")))
        guard case .cannotFindHost(let name, _) = try failure(request) else { return XCTFail("expected .cannotFindHost") }
        XCTAssertEqual(name, host)
    }

    func testAResponseCutInsideItsHeadIsConnectionLost() throws {
        guard case .connectionLost(nil) = try failure(HTTPClientRequest(url: url("cut-headers"))) else {
            return XCTFail("expected .connectionLost(nil)")
        }
    }

    func testABodyShorterThanItsLengthIsConnectionLost() throws {
        guard case .connectionLost(nil) = try failure(HTTPClientRequest(url: url("half"))) else {
            return XCTFail("expected .connectionLost(nil)")
        }
    }

    func testBytesThatAreNotHTTPAreBadResponse() throws {
        guard case .badResponse(let wire) = try failure(HTTPClientRequest(url: url("garbage"))) else {
            return XCTFail("expected .badResponse")
        }
        XCTAssertEqual(wire, .malformedStartLine(offset: 0))
    }

    func testABodyOverTheLimitIsResponseTooLarge() throws {
        client = HTTPClient(configuration: .init(maximumResponseSize: 1_000))
        guard case .responseTooLarge(let limit) = try failure(HTTPClientRequest(url: url("bytes/5000"))) else {
            return XCTFail("expected .responseTooLarge")
        }
        XCTAssertEqual(limit, 1_000)
    }

    func testAnUploadFileThatCannotBeOpenedIsUploadFailed() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("HTTPClientErrorTests-\(UUID().uuidString)")
        let request = HTTPClientRequest(url: url("echo"), method: "POST", body: .file(missing))
        guard case .uploadFailed = try failure(request) else { return XCTFail("expected .uploadFailed") }
        XCTAssertEqual(server.requestCount(path: "/echo"), 0, "nothing was sent")
    }

    func testAnUploadStreamThatFailsMidwayIsUploadFailedWithItsError() throws {
        let request = HTTPClientRequest(url: url("echo"), method: "POST",
                                        body: .stream({ FailingStream(data: Data("first piece".utf8)) }, length: nil))
        guard case .uploadFailed(let underlying) = try failure(request) else { return XCTFail("expected .uploadFailed") }
        XCTAssertEqual((underlying as NSError).code, FailingStream.errorCode, "the stream's own error")
    }

    func testADownloadFileThatCannotBeCreatedIsDownloadFailed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("HTTPClientErrorTests-\(UUID().uuidString)")
        let request = HTTPClientRequest(url: url("bytes/100"), downloadFile: folder.appendingPathComponent("missing-folder/file"))
        guard case .downloadFailed = try failure(request) else { return XCTFail("expected .downloadFailed") }
    }

    func testADownloadGoesToItsFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("HTTPClientErrorTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try executeWithCompletion(HTTPClientRequest(url: url("bytes/70000"), downloadFile: file)).get()
        XCTAssertEqual(response.fileURL, file)
        XCTAssertEqual(response.body, [])
        let written = try Data(contentsOf: file)
        XCTAssertEqual(written.count, 70_000)
        XCTAssertEqual(written.last, UInt8(truncatingIfNeeded: 69_999))
    }
}

/// A stream that gives its bytes, then fails the next read.
private final class FailingStream: InputStream {
    static let errorCode = 4_242
    private var gaveBytes = false

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard !gaveBytes else { return -1 }
        gaveBytes = true
        return super.read(buffer, maxLength: len)
    }

    override var streamError: (any Error)? {
        gaveBytes ? NSError(domain: "FailingStream", code: Self.errorCode) : nil
    }
}
