import Foundation
import HTTPWire
import EventLoopIO
import Locking

/// The test HTTP server on 127.0.0.1 for exact bytes (`FeedServer` is the real one): it answers
/// each request as a script says, given the connection number and the request number on that
/// connection (both from 1); `onAccept` can instead hold or close a connection before reading.
/// Bounded: it polls every 50 ms, stops on `stop()` or after `lifetime`, and reads each request
/// for at most 5 s.
public final class ScriptedHTTPServer: Sendable {
    public enum Reply: Sendable {
        /// Write these bytes and keep reading requests on the connection.
        case respond([UInt8])
        /// Write these bytes and close.
        case respondAndClose([UInt8])
        /// Write these bytes, then keep the connection open, unread, until `stop()`.
        case respondAndHold([UInt8])
        /// Write each piece `interval` after the one before (a server slow to answer), and keep
        /// reading requests on the connection.
        case respondInPieces([[UInt8]], interval: Duration)
        /// Close without answering.
        case close
    }

    /// What happens to a connection as soon as it is accepted.
    public enum Accept: Sendable {
        /// Read requests and answer them as the script says.
        case serve
        /// Read one request head and answer it as the script says, without reading the body.
        case answerHead
        /// Keep it open without reading a byte until `stop()`.
        case hold
        /// Close it at once without a byte.
        case close
    }

    public typealias Script = @Sendable (_ connection: Int, _ request: Int, _ head: HTTPRequestHead) -> Reply

    private let listener: ThreadedListener
    private let script: Script
    private let accept: Accept
    private let received = Lock<[HTTPRequest]>([])

    public init(lifetime: Duration = .seconds(30), onAccept accept: Accept = .serve, script: @escaping Script) throws {
        listener = try ThreadedListener(lifetime: lifetime)
        self.script = script
        self.accept = accept
        listener.start { [self] client, number in
            switch accept {
            case .serve: serve(client, connection: number)
            case .answerHead: answerHead(client, connection: number)
            case .hold: hold()
            case .close: break
            }
        }
    }

    /// The listening port.
    public var port: UInt16 { listener.port }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Connections accepted so far.
    public var connectionCount: Int { listener.connectionCount }

    /// Every request received, in arrival order.
    public var requests: [HTTPRequest] { received.withLock { $0 } }

    /// Stops accepting, waits for the connection threads, closes the listener.
    public func stop() {
        listener.stop()
    }

    /// Returns once `stop()` is called (or the lifetime ends), keeping the caller's connection open.
    private func hold() {
        listener.waitUntilStopped()
    }

    private func serve(_ client: TCPSocket, connection: Int) {
        var parser = HTTPRequestParser()
        var requestNumber = 0
        let readDeadline = ContinuousClock.now + .seconds(5)
        while !listener.isStopped, ContinuousClock.now < readDeadline {
            let request: HTTPRequest?
            do {
                request = try parser.nextRequest()
            } catch {
                return
            }
            guard let request else {
                guard let bytes = try? client.read(timeout: .milliseconds(50)) else { continue }
                if bytes.isEmpty { return }
                parser.feed(bytes)
                continue
            }
            requestNumber += 1
            received.withLock { $0.append(request) }
            guard perform(script(connection, requestNumber, request.head), on: client) else { return }
        }
    }

    private func answerHead(_ client: TCPSocket, connection: Int) {
        var parser = HTTPHeadParser(requiresCRLF: true)
        let readDeadline = ContinuousClock.now + .seconds(5)
        while !listener.isStopped, ContinuousClock.now < readDeadline {
            let head: HTTPRequestHead?
            do {
                head = try parser.nextRequestHead()
            } catch {
                return
            }
            guard let head else {
                guard let bytes = try? client.read(timeout: .milliseconds(50)) else { continue }
                if bytes.isEmpty { return }
                parser.feed(bytes)
                continue
            }
            _ = perform(script(connection, 1, head), on: client)
            return
        }
    }

    /// Carries out `reply`; whether the connection goes on to the next request.
    private func perform(_ reply: Reply, on client: TCPSocket) -> Bool {
        switch reply {
        case .respond(let bytes):
            return (try? client.write(bytes, timeout: .seconds(5))) != nil
        case .respondAndClose(let bytes):
            _ = try? client.write(bytes, timeout: .seconds(5))
            return false
        case .respondAndHold(let bytes):
            _ = try? client.write(bytes, timeout: .seconds(5))
            hold()
            return false
        case .respondInPieces(let pieces, let interval):
            for (index, piece) in pieces.enumerated() {
                if index > 0 { Thread.sleep(forTimeInterval: interval / .seconds(1)) }
                guard (try? client.write(piece, timeout: .seconds(5))) != nil else { return false }
            }
            return true
        case .close:
            return false
        }
    }
}
