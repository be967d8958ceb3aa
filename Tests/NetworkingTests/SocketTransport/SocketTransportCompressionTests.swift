import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import TestSupport
import XCTest

/// Compressed responses: `SocketTransport` asks for gzip and deflate, decodes them with its own
/// inflater, and returns what URLSession returns for the same bytes.
final class SocketTransportCompressionTests: LeakCheckingTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("HTTPWireTests/Fixtures/compression")

    private func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    /// A server answering every request with `body` under `Content-Encoding: coding`.
    private func server(coding: String, body: [UInt8]) throws -> ScriptedHTTPServer {
        let head = "HTTP/1.1 200 OK\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.count)\r\n\r\n"
        return try ScriptedHTTPServer { _, _, _ in .respond(Array(head.utf8) + body) }
    }

    private func send(_ request: URLRequest, on transport: any HTTPTransport) -> Result<Response, ProviderError>? {
        let box = ResultBox()
        _ = transport.send(request, progress: nil, completion: box.set)
        return box.wait(seconds: 15)
    }

    func testGzipAndDeflateAreDecodedAndAskedFor() throws {
        let plain = Data(try fixture("plain.txt"))
        let transport = SocketTransport()
        defer { transport.close() }
        for (coding, name) in [("gzip", "plain.gzip-9-named.gz"), ("deflate", "plain.zlib-6.deflate"), ("deflate", "plain.raw-9.deflate")] {
            let scripted = try server(coding: coding, body: try fixture(name))
            defer { scripted.stop() }
            let response = try XCTUnwrap(send(URLRequest(url: scripted.url("/")), on: transport)).get()
            XCTAssertEqual(response.data, plain, name)
            XCTAssertEqual(response.response?.value(forHTTPHeaderField: "Content-Encoding"), coding, "the header says what was decoded")
            XCTAssertEqual(scripted.requests.first?.head.headers["Accept-Encoding"], "gzip, deflate")
        }
    }

    func testACallersAcceptEncodingIsKept() throws {
        let scripted = try ScriptedHTTPServer { _, _, _ in .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)) }
        defer { scripted.stop() }
        let transport = SocketTransport()
        defer { transport.close() }
        var request = URLRequest(url: scripted.url("/"))
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        XCTAssertEqual(try XCTUnwrap(send(request, on: transport)).get().data, Data("ok".utf8))
        XCTAssertEqual(scripted.requests.first?.head.headers.values(for: "Accept-Encoding"), ["identity"])
    }

    func testADecompressionBombIsResponseTooLarge() throws {
        let scripted = try server(coding: "gzip", body: try fixture("zeros-64mb.gz"))
        defer { scripted.stop() }
        let transport = SocketTransport(configuration: .init(maximumResponseSize: 1_048_576))
        defer { transport.close() }
        let result = try XCTUnwrap(send(URLRequest(url: scripted.url("/")), on: transport))
        guard case .failure(.underlying(let error, let response)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error as? TransportError, .responseTooLarge(limit: 1_048_576))
        XCTAssertEqual(response?.statusCode, 200)
    }

    /// A gzip body that does not decode is URLSession's -1015 (`cannotDecodeRawData`, "couldn't
    /// be decoded for a known content encoding"), not -1011, and a bad response to classify.
    func testCorruptCompressedDataIsABadResponse() throws {
        var body = try fixture("plain.gzip-1.gz")
        body[body.count - 6] ^= 0xFF
        let scripted = try server(coding: "gzip", body: body)
        defer { scripted.stop() }
        let transport = SocketTransport()
        defer { transport.close() }
        let result = try XCTUnwrap(send(URLRequest(url: scripted.url("/")), on: transport))
        guard case .failure(let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error.urlError?.code, .cannotDecodeRawData)
        XCTAssertTrue(error.isBadResponse)
    }

    /// Both transports return the same decoded body for the same compressed response.
    func testBothTransportsReturnTheSameBody() throws {
        let scripted = try server(coding: "gzip", body: try fixture("plain.gzip-9-named.gz"))
        defer { scripted.stop() }
        let socket = SocketTransport()
        defer { socket.close() }
        let session = URLSessionTransport()
        var request = URLRequest(url: scripted.url("/"))
        request.setValue("gzip, deflate", forHTTPHeaderField: "Accept-Encoding")
        let viaSocket = try XCTUnwrap(send(request, on: socket)).get()
        let viaSession = try XCTUnwrap(send(request, on: session)).get()
        XCTAssertEqual(viaSocket.data, viaSession.data)
        XCTAssertEqual(viaSocket.data, Data(try fixture("plain.txt")))
        XCTAssertEqual(viaSocket.response?.value(forHTTPHeaderField: "Content-Encoding"),
                       viaSession.response?.value(forHTTPHeaderField: "Content-Encoding"))
    }
}

/// One transport answer, waited for with a bound.
private final class ResultBox: Sendable {
    private let result = Lock<Result<Response, ProviderError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ value: Result<Response, ProviderError>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait(seconds: Int) -> Result<Response, ProviderError>? {
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return result.withLock { $0 }
    }
}
