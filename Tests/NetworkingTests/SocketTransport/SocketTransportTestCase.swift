import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EventLoopIO
import Locking
import Networking
import Synchronization
import TestSupport
import XCTest

/// A `FeedServer` (`FeedServerTestCase`'s) and a `SocketTransport` per test, both shut down in
/// `tearDown`, with helpers that send one request and wait (bounded) for its single answer.
class SocketTransportTestCase: FeedServerTestCase {
    /// What one `send` reported.
    typealias Outcome = TransportOutcome

    var transport: SocketTransport!

    override func setUpWithError() throws {
        try super.setUpWithError()
        transport = SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5)))
    }

    override func tearDown() {
        transport?.close()
        transport = nil
        super.tearDown()
    }

    func url(_ path: String) -> URL {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: "http://127.0.0.1:\(server.port)/\(trimmed)") ?? server.baseURL
    }

    func request(_ path: String, method: String = "GET", body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        request.httpBody = body
        return request
    }

    /// Sends `request` and waits up to `wait` seconds for the answer.
    @discardableResult
    func send(_ request: URLRequest, on transport: (any HTTPTransport)? = nil, wait: TimeInterval = 15,
              file: StaticString = #filePath, line: UInt = #line) throws -> (Outcome, Result<Response, ProviderError>) {
        try TransportOutcome.sending(request, through: transport ?? self.transport, wait: wait, file: file, line: line)
    }

    /// Sends a `GET` for `path` on the test server.
    @discardableResult
    func get(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Result<Response, ProviderError> {
        try send(request(path), file: file, line: line).1
    }

    /// Blocks the threads of `loops` until the returned closure is called.
    func block(_ loops: [EventLoop]) -> @Sendable () -> Void {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for loop in loops {
            loop.execute {
                entered.signal()
                release.wait()
            }
        }
        for _ in loops { XCTAssertEqual(entered.wait(timeout: .now() + 20), .success, "a loop ran the blocking task") }
        return { for _ in loops { release.signal() } }
    }

    /// The failure of `result`, failing the test when it succeeded.
    func failure(_ result: Result<Response, ProviderError>, file: StaticString = #filePath, line: UInt = #line) throws -> ProviderError {
        guard case .failure(let error) = result else {
            XCTFail("expected a failure, got \(result)", file: file, line: line)
            throw TestError(1)
        }
        return error
    }
}
