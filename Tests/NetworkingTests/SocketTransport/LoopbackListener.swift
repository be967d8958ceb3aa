import Foundation
import EventLoopIO
import TestSupport

/// One fixed behaviour for every connection, served by `ScriptedHTTPServer` (the one test
/// server for exact bytes): the names the URLSession tests read best.
final class LoopbackListener: Sendable {
    enum Behavior: Sendable {
        /// Accept and never answer (connections stay open until `stop()`).
        case silent
        /// Accept, then close at once without a byte.
        case acceptAndClose
        /// Read the request head, then close without answering.
        case readAndClose
        /// Read the request head (not the body), then write `bytes` and close.
        case respond(Data)
        /// Read the request head, write `bytes`, then keep the connection open without closing.
        case respondAndHold(Data)
    }

    private let server: ScriptedHTTPServer

    init(_ behavior: Behavior, lifetime: Duration = .seconds(20)) throws {
        let accept: ScriptedHTTPServer.Accept = switch behavior {
        case .silent: .hold
        case .acceptAndClose: .close
        case .readAndClose, .respond, .respondAndHold: .answerHead
        }
        let reply: ScriptedHTTPServer.Reply = switch behavior {
        case .respond(let bytes): .respondAndClose([UInt8](bytes))
        case .respondAndHold(let bytes): .respondAndHold([UInt8](bytes))
        case .silent, .acceptAndClose, .readAndClose: .close
        }
        server = try ScriptedHTTPServer(lifetime: lifetime, onAccept: accept) { _, _, _ in reply }
    }

    /// The listening port.
    var port: UInt16 { server.port }

    /// Connections accepted so far.
    var acceptedCount: Int { server.connectionCount }

    /// Stops accepting and closes every connection and the listening socket.
    func stop() { server.stop() }

    deinit { stop() }

    /// A port on 127.0.0.1 that nothing listens on: bound by us, then closed.
    static func refusedPort() throws -> UInt16 {
        let socket = try TCPSocket.listen(host: "127.0.0.1", port: 0, backlog: 1)
        defer { socket.close() }
        return try socket.localPort()
    }
}
