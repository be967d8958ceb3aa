import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import TestSupport
import XCTest

/// The two transports agree on limits by default: redirects (20) and the size of a response head
/// (300 KB, FoundationNetworking's libcurl's); the same server bytes pass or fail on both.
final class TransportLimitsTests: LeakCheckingTestCase {
    /// A server answering with a head of about `headBytes` bytes (filler fields of 1,000 bytes).
    private func server(headBytes: Int) throws -> ScriptedHTTPServer {
        var head = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
        var index = 0
        while head.utf8.count < headBytes {
            head += "X-Filler-\(index): " + String(repeating: "a", count: 1000) + "\r\n"
            index += 1
        }
        let bytes = Array((head + "\r\nok").utf8)
        return try ScriptedHTTPServer { _, _, _ in .respondAndClose(bytes) }
    }

    private func outcome(_ transport: any HTTPTransport, _ url: URL) -> Result<Response, ProviderError>? {
        let done = DispatchSemaphore(value: 0)
        let result = Lock<Result<Response, ProviderError>?>(nil)
        _ = transport.send(URLRequest(url: url), progress: nil) { value in
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + 15) == .success else { return nil }
        return result.withLock { $0 }
    }

    func testBothTransportsTakeAHeadOf200KBAndRefuseOneOf320KB() throws {
        XCTAssertEqual(SocketTransport.Configuration().maximumHeaderBytes, 300 * 1024)
        let socket = SocketTransport()
        defer { socket.close() }
        let session = URLSessionTransport()
        for (size, passes) in [(200_000, true), (320_000, false)] {
            for (name, transport) in [("SocketTransport", socket as any HTTPTransport), ("URLSessionTransport", session)] {
                let scripted = try server(headBytes: size)
                defer { scripted.stop() }
                let result = try XCTUnwrap(outcome(transport, scripted.url("/")), "\(name), \(size): no answer")
                switch result {
                case .success(let response):
                    XCTAssertTrue(passes, "\(name) took a head of \(size) bytes")
                    XCTAssertEqual(response.data, Data("ok".utf8))
                case .failure(let error):
                    XCTAssertFalse(passes, "\(name) refused a head of \(size) bytes: \(error)")
                }
            }
        }
    }
}
