import Foundation

/// Every decision of opening a SOCKS4 tunnel on a connection just made to the proxy, as a value:
/// one `CONNECT` request to the origin's IPv4 address (resolved here, as curl's `socks4://`
/// resolves it) with the proxy URL's user as its user ID, then the proxy's eight-byte reply. A
/// request the proxy does not grant is `proxyRefused` with the reply's code (91 rejected or
/// failed, 92 and 93 for the proxy's ident checks); bytes that are no SOCKS4 reply fail as a
/// malformed response. `ProxyTunnel` drives it.
struct SOCKS4Machine: TunnelNegotiation {
    enum State: Equatable, Sendable {
        /// Made, not started.
        case idle
        /// The request going out.
        case sendingRequest
        /// The request is out: the proxy's reply is read.
        case awaitingReply
        /// Established or failed: nothing follows.
        case done
    }

    /// What the driver does next (the negotiations' shared actions).
    typealias Action = TunnelAction

    private(set) var state = State.idle
    /// The origin's address: four bytes (the protocol carries no other).
    let address: [UInt8]
    let port: UInt16
    /// The proxy URL's user, sent as the request's user ID (SOCKS4 has no password).
    let userID: String
    /// Bytes of the proxy's reply not used yet.
    private var buffer: [UInt8] = []

    /// The reply's length and the code that grants the request.
    private static let replyLength = 8
    private static let granted: UInt8 = 90

    init(address: [UInt8], port: UInt16, userID: String?) {
        self.address = address
        self.port = port
        self.userID = userID ?? ""
    }

    var isSending: Bool {
        switch state {
        case .sendingRequest: true
        case .idle, .awaitingReply, .done: false
        }
    }

    var isNegotiating: Bool {
        switch state {
        case .sendingRequest, .awaitingReply: true
        case .idle, .done: false
        }
    }

    /// Version 4, command 1 (`CONNECT`), the port (most significant byte first), the address,
    /// then the user ID ended by a zero byte.
    var request: [UInt8] {
        [4, 1, UInt8(port >> 8), UInt8(port & 0xFF)] + address + Array(userID.utf8) + [0]
    }

    /// The connection to the proxy is open: the request goes out, unless the origin is no IPv4
    /// address or the user ID would end early at a zero byte of its own.
    mutating func start() -> Action {
        switch state {
        case .idle:
            guard address.count == 4 else { return finish(.fail(.cannotConnect(errno: EAFNOSUPPORT))) }
            guard !userID.utf8.contains(0) else { return finish(.fail(.proxyRefused(status: 407))) }
            state = .sendingRequest
            return .write(request)
        case .sendingRequest, .awaitingReply, .done:
            preconditionFailure("SOCKS4Machine: start() in \(state)")
        }
    }

    /// The request is all out: the reply is read (or used, if it came already).
    mutating func written() -> Action {
        switch state {
        case .sendingRequest:
            state = .awaitingReply
            return proceed(waiting: .awaitAnswer)
        case .idle, .awaitingReply, .done:
            preconditionFailure("SOCKS4Machine: written() in \(state)")
        }
    }

    /// Bytes of the reply arrived; while the request is still going out they wait for its end.
    mutating func received(_ bytes: ArraySlice<UInt8>) -> Action {
        switch state {
        case .sendingRequest:
            buffer += bytes
            return .none
        case .awaitingReply:
            buffer += bytes
            return proceed(waiting: .none)
        case .idle, .done:
            preconditionFailure("SOCKS4Machine: received(_:) in \(state)")
        }
    }

    /// The proxy closed the connection before the tunnel was open.
    mutating func endOfStream() -> Action {
        switch state {
        case .sendingRequest, .awaitingReply:
            return finish(.fail(.connectionLost(errno: nil)))
        case .idle, .done:
            preconditionFailure("SOCKS4Machine: endOfStream() in \(state)")
        }
    }

    /// A read failed with `errno`.
    mutating func readFailed(errno: Int32) -> Action {
        switch state {
        case .sendingRequest, .awaitingReply:
            return finish(.fail(.connectionLost(errno: errno)))
        case .idle, .done:
            preconditionFailure("SOCKS4Machine: readFailed(errno:) in \(state)")
        }
    }

    /// The proxy stopped taking the request (the system's error number is not known here).
    mutating func writeFailed() -> Action {
        switch state {
        case .sendingRequest:
            return finish(.fail(.connectionLost(errno: nil)))
        case .idle, .awaitingReply, .done:
            preconditionFailure("SOCKS4Machine: writeFailed() in \(state)")
        }
    }

    /// The connect deadline passed before the tunnel was open.
    mutating func timerFired() -> Action {
        switch state {
        case .sendingRequest, .awaitingReply:
            return finish(.fail(.timedOut(.connect)))
        case .idle, .done:
            preconditionFailure("SOCKS4Machine: timerFired() in \(state)")
        }
    }

    /// Uses the reply when it is whole; `waiting` while it is not. Its first byte is 0 (as curl
    /// requires), and the origin speaks after the client: bytes past it are no tunnel.
    private mutating func proceed(waiting: Action) -> Action {
        switch state {
        case .awaitingReply:
            guard buffer.count >= Self.replyLength else { return waiting }
            guard buffer[0] == 0 else { return finish(.fail(.notAProxyAnswer)) }
            guard buffer[1] == Self.granted else { return finish(.fail(.proxyRefused(status: Int(buffer[1])))) }
            return finish(buffer.count == Self.replyLength ? .established : .fail(.notAProxyAnswer))
        case .idle, .sendingRequest, .done:
            preconditionFailure("SOCKS4Machine: a reply used in \(state)")
        }
    }


    private mutating func finish(_ action: Action) -> Action {
        state = .done
        return action
    }
}
