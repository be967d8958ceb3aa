import EventLoopIO
import FeedServer
import HTTPWire
import TestSupport
import XCTest

/// A minimal HTTPS client for talking to `FeedServer` over TLS byte by byte: a blocking socket
/// and a `TLSMachine(client:)` trusting the test CA. It tells how the server ended the
/// connection (`closure`: with `close_notify` or cut), which an HTTP client hides.
final class RawTLSClient {
    let socket: TCPSocket
    let machine: TLSMachine
    /// Plaintext received and not yet taken by `response()`.
    private(set) var plaintext: [UInt8] = []
    private(set) var handshake: TLSHandshake?
    private(set) var closure: TLSMachine.Closure?
    private(set) var failure: TLSFailure?

    /// The client context every test shares (one trust store read).
    static let context: Result<TLSClientContext, TLSFailure> = Result { () throws(TLSFailure) in
        try TLSClientContext(configuration: TLSFixtures.client)
    }

    /// Connects and completes the handshake (bounded: 5 s), offering `session`.
    init(port: UInt16, session: TLSSession? = nil) throws {
        socket = try TCPSocket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5))
        do {
            machine = try TLSMachine(client: Self.context.get(), host: "localhost", session: session)
            try perform(machine.start())
            try readUntil(timeout: .seconds(5)) { handshake != nil }
        } catch {
            socket.close()
            throw error
        }
    }

    /// The session to offer on a later connection (in TLS 1.3 it comes with the first answer).
    var session: TLSSession? { machine.session }

    /// Sends a request for `target` (with `Connection: close` when `close`).
    func request(_ target: String, close: Bool = false) throws {
        let text = "GET \(target) HTTP/1.1\r\nHost: localhost\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n"
        try perform(machine.send(plaintext: Array(text.utf8)))
    }

    /// Reads one response (bounded: 10 s).
    func response() throws -> HTTPResponse {
        var parser = HTTPResponseParser(requestMethod: "GET")
        var response: HTTPResponse?
        try readUntil(timeout: .seconds(10)) {
            if response == nil, !plaintext.isEmpty {
                response = try? parser.feed(plaintext)
                plaintext = []
            }
            return response != nil || closure != nil
        }
        if let response { return response }
        return try parser.finishAtEndOfStream()
    }

    /// Reads until the server ends the connection (bounded: 10 s); returns the plaintext left.
    func readUntilEnd() throws -> [UInt8] {
        try readUntil(timeout: .seconds(10)) { closure != nil }
        defer { plaintext = [] }
        return plaintext
    }

    func close() {
        socket.close()
    }

    private func readUntil(timeout: Duration, _ done: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while try !done() {
            if let failure { throw failure }
            guard closure == nil else { return }
            guard ContinuousClock.now < deadline else { throw SocketError.timedOut(operation: .read) }
            let bytes = try socket.read(timeout: ContinuousClock.now.duration(to: deadline))
            try perform(bytes.isEmpty ? machine.receiveEndOfStream() : machine.receive(ciphertext: bytes))
        }
    }

    private func perform(_ actions: [TLSMachine.Action]) throws {
        for action in actions {
            switch action {
            case .write(let bytes): try socket.write(bytes, timeout: .seconds(5))
            case .deliver(let bytes): plaintext += bytes
            case .handshakeCompleted(let handshake): self.handshake = handshake
            case .closed(let closure): self.closure = closure
            case .failed(let failure): self.failure = failure
            }
        }
    }
}
