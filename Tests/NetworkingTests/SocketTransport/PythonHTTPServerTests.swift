import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EventLoopIO
import Networking
import TestSupport
import XCTest

/// `SocketTransport` against a server this project did not write: `python3 -m http.server`
/// serving a temporary directory on loopback (HTTP/1.0, one connection per request).
final class PythonHTTPServerTests: LeakCheckingTestCase {
    private var process: Process?
    private var directory: URL?
    private var transport: SocketTransport!
    private var port: UInt16 = 0
    private let fileContents = Data("served by python\n".utf8)

    override func setUpWithError() throws {
        try super.setUpWithError()
        transport = SocketTransport(configuration: .init(connectTimeout: .seconds(2), idleTimeout: .seconds(5)))
    }

    override func tearDown() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        process = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
        transport?.close()
        transport = nil
        super.tearDown()
    }

    private static func python3() -> URL? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A free port on `host`: bound by the kernel's choice, then released.
    private static func freePort(host: String) throws -> UInt16 {
        let socket = try TCPSocket.listen(host: host, port: 0)
        defer { socket.close() }
        return try socket.localPort()
    }

    /// Starts the server bound to `bind` and waits (at most 10 s) until it accepts connections on `connectHost`.
    private func startServer(bind: String = "127.0.0.1", connectHost: String = "127.0.0.1") throws {
        guard let python = Self.python3() else { throw XCTSkip("python3 is not installed; the foreign-server tests need it") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("socket-python-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try fileContents.write(to: directory.appendingPathComponent("hello.txt"))
        try Data("inner".utf8).write(to: directory.appendingPathComponent("sub/inner.txt"))
        self.directory = directory
        port = try Self.freePort(host: "127.0.0.1")
        let process = Process()
        process.executableURL = python
        process.arguments = ["-m", "http.server", String(port), "--bind", bind, "--directory", directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, process.isRunning {
            if let socket = try? TCPSocket.connect(host: connectHost, port: port, timeout: .milliseconds(200)) {
                socket.close()
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw XCTSkip("python3 -m http.server did not start listening on \(connectHost):\(port) within 10 s")
    }

    private func get(_ path: String, host: String = "127.0.0.1", method: String = "GET") throws -> Result<Response, ProviderError> {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "http://\(host):\(port)\(path)")))
        request.httpMethod = method
        let results = Recorder<Result<Response, ProviderError>>()
        _ = transport.send(request, progress: nil) { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 15) { results.count > 0 }, "no answer for \(path)")
        return try XCTUnwrap(results.values.first)
    }

    func testFileIsServed() throws {
        try startServer()
        let response = try get("/hello.txt").get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.data, fileContents)
        XCTAssertEqual(response.headerValue("Content-Length"), String(fileContents.count))
        XCTAssertEqual(response.response?.url?.path, "/hello.txt")
    }

    func testHeadHasNoBody() throws {
        try startServer()
        let response = try get("/hello.txt", method: "HEAD").get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.headerValue("Content-Length"), String(fileContents.count))
        XCTAssertTrue(response.data.isEmpty)
    }

    func testMissingFileIsA404ClassifiedAsARestError() throws {
        try startServer()
        let response = try get("/missing.txt").get()
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(APIError.classify(ProviderError.statusCode(response))?.statusCode, 404)
    }

    func testDirectoryRedirectIsFollowed() throws {
        try startServer()
        let response = try get("/sub").get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.response?.url?.absoluteString, "http://127.0.0.1:\(port)/sub/")
        XCTAssertTrue(String(decoding: response.data, as: UTF8.self).contains("inner.txt"))
    }

    func testManySequentialRequestsEachGetTheirAnswer() throws {
        try startServer()
        for _ in 0..<20 {
            XCTAssertEqual(try get("/hello.txt").get().data, fileContents)
        }
        XCTAssertEqual(transport.idleConnectionCount, 0, "HTTP/1.0 answers close their connection")
    }

    func testIPv6LoopbackLiteral() throws {
        try startServer(bind: "::1", connectHost: "::1")
        let response = try get("/hello.txt", host: "[::1]").get()
        XCTAssertEqual(response.data, fileContents)
    }
}
