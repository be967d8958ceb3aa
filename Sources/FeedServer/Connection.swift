import HTTPWire
import EventLoopIO

/// One accepted connection, served on its own thread: reads requests one after another
/// (keep-alive), answers each through the router, and returns when the connection should close.
struct Connection {
    /// Whether the connection can carry another request after a route answered.
    enum Disposition {
        case keepAlive
        case close
    }

    let server: FeedServer
    let socket: TCPSocket
    private var parser: HTTPRequestParser
    private var countedHeads = 0

    init(server: FeedServer, socket: TCPSocket) {
        self.server = server
        self.socket = socket
        self.parser = HTTPRequestParser(maxHeaderBytes: server.configuration.maxHeaderBytes, maxBodyBytes: server.configuration.maxBodyBytes)
    }

    var configuration: FeedServer.Configuration { server.configuration }

    mutating func serve() {
        while !server.isStopped {
            guard let request = readRequest() else { return }
            let keepAlive = request.head.keepAlive
            let disposition = Router.handle(ReceivedRequest(head: request.head, body: request.body), on: self, keepAlive: keepAlive)
            if disposition == .close || !keepAlive { return }
        }
    }

    /// Reads the next request; answers 400/413/431 itself and returns nil when the connection must end.
    private mutating func readRequest() -> HTTPRequest? {
        do {
            while true {
                let request = try parser.nextRequest()
                try acknowledgeNewHead(completed: request)
                if let request { return request }
                let bytes = try socket.read(timeout: configuration.idleTimeout)
                if bytes.isEmpty {
                    try parser.finishAtEndOfStream()
                    return nil
                }
                parser.feed(bytes)
            }
        } catch let error as HTTPWireError {
            countNewHead()
            let status: Int
            switch error {
            case .headersTooLarge: status = 431
            case .bodyTooLarge: status = 413
            case .truncatedHead, .truncatedBody: return nil
            default: status = 400
            }
            send(Responses.json(status: status, code: "E\(status)", message: error.description, keepAlive: false))
            lingeringClose()
            return nil
        } catch {
            return nil
        }
    }

    /// Counts each head once and answers `Expect: 100-continue` while its body is still to come.
    private mutating func acknowledgeNewHead(completed request: HTTPRequest?) throws {
        guard parser.headCount > countedHeads else { return }
        countedHeads = parser.headCount
        if let request {
            server.record(request.head, connection: socket)
        } else if let head = parser.pendingHead {
            server.record(head, connection: socket)
            if head.headers.containsToken("100-continue", in: "Expect") {
                try socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), timeout: configuration.writeTimeout)
            }
        }
    }

    /// Counts a head that was parsed but whose request failed (an oversize or malformed body).
    private mutating func countNewHead() {
        guard parser.headCount > countedHeads, let head = parser.pendingHead else { return }
        countedHeads = parser.headCount
        server.record(head, connection: socket)
    }

    /// After an error response, stops sending and drains what the client still sends (bounded),
    /// so that closing does not reset the connection before the client has read the response.
    private func lingeringClose() {
        socket.shutdownWrite()
        let deadline = ContinuousClock.now + .seconds(1)
        var drained = 0
        while drained < 4_194_304, !server.isStopped, ContinuousClock.now < deadline {
            guard let bytes = try? socket.read(timeout: ContinuousClock.now.duration(to: deadline)), !bytes.isEmpty else { return }
            drained += bytes.count
        }
    }

    /// Writes a complete response; false when the client went away.
    @discardableResult
    func send(_ response: HTTPResponse) -> Bool {
        write(response.serialized())
    }

    /// Writes raw bytes; false when the client went away.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        do {
            try socket.write(bytes, timeout: configuration.writeTimeout)
            return true
        } catch {
            return false
        }
    }

    /// Writes a slice of raw bytes; false when the client went away.
    @discardableResult
    func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        do {
            try socket.write(bytes, timeout: configuration.writeTimeout)
            return true
        } catch {
            return false
        }
    }

    /// Reads and discards until the client closes or the server stops.
    func waitForClose() {
        while !server.isStopped {
            do {
                if try socket.read(timeout: .milliseconds(200)).isEmpty { return }
            } catch SocketError.timedOut {
                continue
            } catch {
                return
            }
        }
    }
}

/// A request as the server received it.
struct ReceivedRequest {
    let head: HTTPRequestHead
    let body: [UInt8]
}
