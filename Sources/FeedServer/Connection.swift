import HTTPWire

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
    private var parser: HTTPHeadParser

    init(server: FeedServer, socket: TCPSocket) {
        self.server = server
        self.socket = socket
        self.parser = HTTPHeadParser(maxHeaderBytes: server.configuration.maxHeaderBytes)
    }

    var configuration: FeedServer.Configuration { server.configuration }

    mutating func serve() {
        while !server.isStopped {
            guard let request = readRequest() else { return }
            let keepAlive = request.head.keepAlive
            let disposition = Router.handle(request, on: self, keepAlive: keepAlive)
            if disposition == .close || !keepAlive { return }
        }
    }

    /// Reads the next request; answers 400/413/431 itself and returns nil when the connection must end.
    private mutating func readRequest() -> ReceivedRequest? {
        let head: HTTPRequestHead
        do {
            head = try readHead()
        } catch let error as HTTPWireError {
            if case .headersTooLarge = error {
                send(Responses.json(status: 431, code: "E431", message: error.description, keepAlive: false))
            } else {
                send(Responses.json(status: 400, code: "E400", message: error.description, keepAlive: false))
            }
            return nil
        } catch {
            return nil
        }
        server.record(head)
        do {
            let body = try readBody(of: head)
            return ReceivedRequest(head: head, body: body)
        } catch let error as HTTPWireError {
            if case .bodyTooLarge = error {
                send(Responses.json(status: 413, code: "E413", message: error.description, keepAlive: false))
            } else {
                send(Responses.json(status: 400, code: "E400", message: error.description, keepAlive: false))
            }
            return nil
        } catch {
            return nil
        }
    }

    private struct EndOfStream: Error {}

    private mutating func readHead() throws -> HTTPRequestHead {
        while true {
            if let head = try parser.nextRequestHead() { return head }
            let bytes = try socket.read(timeout: configuration.idleTimeout)
            guard !bytes.isEmpty else { throw EndOfStream() }
            parser.feed(bytes)
        }
    }

    private mutating func readBody(of head: HTTPRequestHead) throws -> [UInt8] {
        let framing = try head.bodyFraming()
        if case .contentLength(let length) = framing, length > configuration.maxBodyBytes {
            throw HTTPWireError.bodyTooLarge(limit: configuration.maxBodyBytes)
        }
        if framing != .none, head.headers.containsToken("100-continue", in: "Expect") {
            try socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), timeout: configuration.writeTimeout)
        }
        var decoder = HTTPBodyDecoder(framing: framing, maxBodyBytes: configuration.maxBodyBytes)
        var body: [UInt8] = []
        var pending = parser.takeBuffered()
        while true {
            let used = try decoder.decode(pending[...], into: &body)
            if decoder.isComplete {
                parser.feed(pending[used...])
                return body
            }
            pending = try socket.read(timeout: configuration.idleTimeout)
            if pending.isEmpty {
                try decoder.finishAtEndOfStream()
                throw EndOfStream()
            }
        }
    }

    /// Writes a response (head only for `HEAD` requests is the router's concern); false when the client went away.
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
