import FeedServer
import Foundation
import HTTPClient
import EventLoopIO
import TestSupport
import XCTest

/// A `FeedServer` on 127.0.0.1 and an `HTTPClient` per test, both shut down in `tearDown`, with
/// helpers that run either entry point and wait (bounded) for its one answer.
class HTTPClientTestCase: XCTestCase {
    var server: FeedServer!
    var client: HTTPClient!

    override func setUpWithError() throws {
        server = try FeedServer()
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5)))
    }

    override func tearDown() {
        client?.closeIdleConnections()
        client = nil
        server?.stop()
        server = nil
        super.tearDown()
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(server.port)/\(path)") ?? server.baseURL
    }

    /// Whether the current thread is one of the shared event loops' (the ones the client runs on).
    static func onALoop() -> Bool {
        EventLoopGroup.shared?.loops.contains { $0.inLoop } ?? false
    }

    /// Runs `execute` (the `async` form) on a task and waits, bounded, for its outcome and whether
    /// the code after the `await` ran on a loop thread.
    func executeAsync(_ request: HTTPClientRequest, on client: HTTPClient? = nil,
                      cancelWhen ready: (() -> Bool)? = nil) throws -> (Result<HTTPClientResponse, HTTPClientError>, onLoop: Bool) {
        let client = client ?? self.client!
        let outcome = Recorder<(Result<HTTPClientResponse, HTTPClientError>, Bool)>()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let result = await HTTPClientTestCase.result(of: request, on: client)
            outcome.append((result, HTTPClientTestCase.onALoop()))
            done.signal()
        }
        if let ready {
            XCTAssertTrue(waitUntil(timeout: 20, ready), "the request reached the server")
            task.cancel()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "execute returned")
        let (result, onLoop) = try XCTUnwrap(outcome.values.first)
        return (result, onLoop)
    }

    private static func result(of request: HTTPClientRequest, on client: HTTPClient) async -> Result<HTTPClientResponse, HTTPClientError> {
        do throws(HTTPClientError) {
            return .success(try await client.execute(request))
        } catch {
            return .failure(error)
        }
    }

    /// Runs the completion form and waits, bounded, for its one answer.
    func executeWithCompletion(_ request: HTTPClientRequest) throws -> Result<HTTPClientResponse, HTTPClientError> {
        try Self.executeWithCompletion(request, on: client)
    }

    /// Runs the completion form on `client` and waits, bounded, for its one answer (for test
    /// cases with a client of their own too).
    static func executeWithCompletion(_ request: HTTPClientRequest, on client: HTTPClient) throws -> Result<HTTPClientResponse, HTTPClientError> {
        let answers = Recorder<Result<HTTPClientResponse, HTTPClientError>>()
        let done = DispatchSemaphore(value: 0)
        client.execute(request) { result in
            answers.append(result)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "the completion ran")
        XCTAssertEqual(answers.count, 1)
        return try XCTUnwrap(answers.values.first)
    }
}
