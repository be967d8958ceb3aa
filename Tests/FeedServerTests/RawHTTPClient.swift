import FeedServer
import Foundation
import HTTPWire
import EventLoopIO
import TestSupport
import XCTest

/// A minimal HTTP/1.1 client over `HTTPWire` sockets, for talking to `FeedServer` byte by byte.
/// Bytes read past one response are kept for the next (pipelining).
final class RawHTTPClient {
    let socket: TCPSocket
    private var leftover: [UInt8] = []

    init(port: UInt16) throws {
        socket = try TCPSocket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5))
    }

    func send(_ text: String) throws {
        try socket.write(Array(text.utf8), timeout: .seconds(5))
    }

    func send(_ bytes: [UInt8]) throws {
        try socket.write(bytes, timeout: .seconds(5))
    }

    /// Sends a GET (or `method`) for `target` with optional extra header lines and body.
    func request(_ method: String = "GET", _ target: String, headers: [String] = [], body: [UInt8] = []) throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for line in headers { text += line + "\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        try send(Array((text + "\r\n").utf8) + body)
    }

    /// Reads one response, finishing at end of stream when the framing allows.
    func response(method: String = "GET", timeout: Duration = .seconds(10)) throws -> HTTPResponse {
        var parser = HTTPResponseParser(requestMethod: method)
        let deadline = ContinuousClock.now + timeout
        if !leftover.isEmpty {
            let bytes = leftover
            leftover = []
            if let response = try parser.feed(bytes) {
                leftover = parser.unusedBytes
                return response
            }
        }
        while ContinuousClock.now < deadline {
            let bytes = try socket.read(maxBytes: 1 << 20, timeout: ContinuousClock.now.duration(to: deadline))
            if bytes.isEmpty { return try parser.finishAtEndOfStream() }
            if let response = try parser.feed(bytes) {
                leftover = parser.unusedBytes
                return response
            }
        }
        throw SocketError.timedOut(operation: .read)
    }

    /// Reads raw bytes until the server closes (a FIN or a reset).
    func readUntilClose(timeout: Duration = .seconds(10)) throws -> [UInt8] {
        var all: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let bytes: [UInt8]
            do {
                bytes = try socket.read(timeout: ContinuousClock.now.duration(to: deadline))
            } catch {
                // A reset ends the stream as a FIN does, as `exchange` reads it: the server closed.
                guard case .system(_, let code) = error, code == ECONNRESET else { throw error }
                return all
            }
            if bytes.isEmpty { return all }
            all += bytes
        }
        throw SocketError.timedOut(operation: .read)
    }

    func close() {
        socket.close()
    }
}

/// Base class: servers made with `makeServer` are stopped in `tearDown`; clients are closed there too.
class FeedServerTestCase: XCTestCase {
    private var servers: [FeedServer] = []
    private var clients: [RawHTTPClient] = []

    /// Starts the process's shared event loops (their pollers' descriptors and their threads stay
    /// for the whole process) before any test counts descriptors or threads around a server.
    override class func setUp() {
        super.setUp()
        _ = EventLoopGroup.shared
    }

    func makeServer(_ configuration: FeedServer.Configuration = .init()) throws -> FeedServer {
        let server = try FeedServer(configuration: configuration)
        servers.append(server)
        return server
    }

    func connect(_ server: FeedServer) throws -> RawHTTPClient {
        let client = try RawHTTPClient(port: server.port)
        clients.append(client)
        return client
    }

    /// One request on a fresh connection.
    func get(_ server: FeedServer, _ target: String, method: String = "GET", headers: [String] = [], body: [UInt8] = []) throws -> HTTPResponse {
        let client = try connect(server)
        try client.request(method, target, headers: headers, body: body)
        return try client.response(method: method)
    }

    /// What came back for some bytes: the responses, in order, and whether the server closed.
    struct Answer {
        var responses: [HTTPResponse]
        var closed: Bool
        /// The status codes, in order.
        var statuses: [Int] { responses.map(\.head.status) }
        /// Whether a response echoed a request whose query says `smuggled`.
        var answeredSmuggled: Bool {
            responses.contains { String(decoding: $0.body, as: UTF8.self).contains("smuggled") }
        }
    }

    /// Sends `raw` on a fresh connection and reads until the server closes or stays quiet for
    /// `quiet`; the responses are read as answers to `methods` in order (GET past its end), the
    /// last one to its end of stream when the server closed.
    func exchange(_ server: FeedServer, _ raw: String, methods: [String] = [], quiet: Duration = .milliseconds(700)) throws -> Answer {
        let client = try connect(server)
        try client.send(raw)
        var bytes: [UInt8] = []
        var closed = false
        reading: while true {
            do {
                let chunk = try client.socket.read(timeout: quiet)
                if chunk.isEmpty {
                    closed = true
                    break reading
                }
                bytes += chunk
            } catch {
                if case .timedOut = error { break reading }
                guard case .system(_, let code) = error, code == ECONNRESET else { throw error }
                closed = true
                break reading
            }
        }
        var responses: [HTTPResponse] = []
        while !bytes.isEmpty {
            let method = responses.count < methods.count ? methods[responses.count] : "GET"
            var parser = HTTPResponseParser(requestMethod: method)
            guard let response = try parser.feed(bytes) ?? (closed ? parser.finishAtEndOfStream() : nil) else {
                XCTFail("an incomplete response: \(String(decoding: bytes, as: UTF8.self))")
                break
            }
            responses.append(response)
            bytes = parser.unusedBytes
        }
        return Answer(responses: responses, closed: closed)
    }

    func json(_ response: HTTPResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(response.body))
        return try XCTUnwrap(object as? [String: Any])
    }

    override func tearDown() {
        for client in clients { client.close() }
        clients.removeAll()
        for server in servers { server.stop() }
        servers.removeAll()
        super.tearDown()
    }

    static func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }
}
