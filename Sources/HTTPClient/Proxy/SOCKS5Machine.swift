import EventLoopIO
import HTTPWire

/// Every decision of opening a SOCKS5 tunnel (RFC 1928) on a connection just made to the proxy,
/// as a value: the greeting offers no authentication, and user and password (RFC 1929) when the
/// proxy URL has them; then `CONNECT` to the origin, by address (`socks5://`, resolved here) or
/// by name (`socks5h://`, resolved by the proxy). A refused `CONNECT` is `proxyRefused` with the
/// reply's code (1 to 8: general failure, not allowed, network or host unreachable, connection
/// refused, TTL expired, command or address type not supported); credentials refused, or none
/// offered where the proxy wants some, are `proxyRefused(status: 407)`, as an HTTP proxy says it.
/// Bytes that are no SOCKS5 answer fail as a malformed response. `ProxyTunnel` drives it.
struct SOCKS5Machine: TunnelNegotiation {
    /// Where the tunnel goes.
    enum Destination: Equatable, Sendable {
        /// An IPv4 (4 bytes) or IPv6 (16 bytes) address.
        case address([UInt8])
        /// A host name the proxy resolves (at most 255 bytes).
        case name(String)
    }

    enum State: Equatable, Sendable {
        /// Made, not started.
        case idle
        /// The greeting (the methods offered) going out.
        case sendingGreeting
        /// The greeting is out: the proxy's choice of method is read.
        case awaitingMethod
        /// The user and password going out.
        case sendingCredentials
        /// The credentials are out: the proxy's verdict is read.
        case awaitingAuthentication
        /// The `CONNECT` request going out.
        case sendingRequest
        /// The request is out: the proxy's reply is read.
        case awaitingReply
        /// Established or failed: nothing follows.
        case done
    }

    /// What the driver does next (the negotiations' shared actions).
    typealias Action = TunnelAction

    private(set) var state = State.idle
    let destination: Destination
    let port: UInt16
    /// The proxy URL's user and password, if any.
    let user: String?
    let password: String?
    /// Bytes of the proxy's answers not used yet.
    private var buffer: [UInt8] = []

    /// The protocol's version byte, and the methods: none, user and password, none acceptable.
    private static let version: UInt8 = 5
    private static let noAuthentication: UInt8 = 0
    private static let userAndPassword: UInt8 = 2
    private static let noAcceptableMethod: UInt8 = 0xFF

    init(destination: Destination, port: UInt16, credentials: (user: String, password: String)?) {
        self.destination = destination
        self.port = port
        self.user = credentials?.user
        self.password = credentials?.password
    }

    var isSending: Bool {
        switch state {
        case .sendingGreeting, .sendingCredentials, .sendingRequest: true
        case .idle, .awaitingMethod, .awaitingAuthentication, .awaitingReply, .done: false
        }
    }

    var isNegotiating: Bool {
        switch state {
        case .sendingGreeting, .awaitingMethod, .sendingCredentials, .awaitingAuthentication, .sendingRequest, .awaitingReply: true
        case .idle, .done: false
        }
    }

    /// The greeting: version 5 and the methods offered.
    var greeting: [UInt8] {
        user == nil ? [Self.version, 1, Self.noAuthentication] : [Self.version, 2, Self.noAuthentication, Self.userAndPassword]
    }

    /// RFC 1929's request: its version 1, then the user and the password, each after its length.
    var credentialsMessage: [UInt8] {
        let user = Array((user ?? "").utf8), password = Array((password ?? "").utf8)
        return [1, UInt8(clamping: user.count)] + user + [UInt8(clamping: password.count)] + password
    }

    /// `CONNECT` (command 1) to the destination: address type 1 (IPv4), 4 (IPv6) or 3 (a name
    /// after its length), then the port, most significant byte first.
    var request: [UInt8] {
        var bytes: [UInt8] = [Self.version, 1, 0]
        switch destination {
        case .address(let address):
            bytes.append(address.count == 4 ? 1 : 4)
            bytes += address
        case .name(let name):
            bytes += [3, UInt8(clamping: name.utf8.count)]
            bytes += name.utf8
        }
        return bytes + [UInt8(port >> 8), UInt8(port & 0xFF)]
    }

    /// The connection to the proxy is open: the greeting goes out, unless the destination does
    /// not fit the protocol's one-byte length (credentials RFC 1929 cannot carry fail only if
    /// the proxy asks for them, as curl checks them).
    mutating func start() -> Action {
        switch state {
        case .idle:
            switch destination {
            case .address(let address) where address.count != 4 && address.count != 16:
                return finish(.fail(.invalidURL(unsupportedScheme: false)))
            case .name(let name) where name.utf8.isEmpty || name.utf8.count > 255:
                return finish(.fail(.invalidURL(unsupportedScheme: false)))
            case .address, .name:
                break
            }
            state = .sendingGreeting
            return .write(greeting)
        case .sendingGreeting, .awaitingMethod, .sendingCredentials, .awaitingAuthentication, .sendingRequest, .awaitingReply, .done:
            preconditionFailure("SOCKS5Machine: start() in \(state)")
        }
    }

    /// The last message is all out: its answer is read (or used, if it came already).
    mutating func written() -> Action {
        switch state {
        case .sendingGreeting:
            state = .awaitingMethod
        case .sendingCredentials:
            state = .awaitingAuthentication
        case .sendingRequest:
            state = .awaitingReply
        case .idle, .awaitingMethod, .awaitingAuthentication, .awaitingReply, .done:
            preconditionFailure("SOCKS5Machine: written() in \(state)")
        }
        return proceed(waiting: .awaitAnswer)
    }

    /// Bytes of an answer arrived; while a message is still going out they wait for its end.
    mutating func received(_ bytes: ArraySlice<UInt8>) -> Action {
        switch state {
        case .sendingGreeting, .sendingCredentials, .sendingRequest:
            buffer += bytes
            return .none
        case .awaitingMethod, .awaitingAuthentication, .awaitingReply:
            buffer += bytes
            return proceed(waiting: .none)
        case .idle, .done:
            preconditionFailure("SOCKS5Machine: received(_:) in \(state)")
        }
    }

    /// The proxy closed the connection before the tunnel was open.
    mutating func endOfStream() -> Action {
        switch state {
        case .sendingGreeting, .awaitingMethod, .sendingCredentials, .awaitingAuthentication, .sendingRequest, .awaitingReply:
            return finish(.fail(.connectionLost(errno: nil)))
        case .idle, .done:
            preconditionFailure("SOCKS5Machine: endOfStream() in \(state)")
        }
    }

    /// A read failed with `errno`.
    mutating func readFailed(errno: Int32) -> Action {
        switch state {
        case .sendingGreeting, .awaitingMethod, .sendingCredentials, .awaitingAuthentication, .sendingRequest, .awaitingReply:
            return finish(.fail(.connectionLost(errno: errno)))
        case .idle, .done:
            preconditionFailure("SOCKS5Machine: readFailed(errno:) in \(state)")
        }
    }

    /// The proxy stopped taking a message (the system's error number is not known here).
    mutating func writeFailed() -> Action {
        switch state {
        case .sendingGreeting, .sendingCredentials, .sendingRequest:
            return finish(.fail(.connectionLost(errno: nil)))
        case .idle, .awaitingMethod, .awaitingAuthentication, .awaitingReply, .done:
            preconditionFailure("SOCKS5Machine: writeFailed() in \(state)")
        }
    }

    /// The connect deadline passed before the tunnel was open.
    mutating func timerFired() -> Action {
        switch state {
        case .sendingGreeting, .awaitingMethod, .sendingCredentials, .awaitingAuthentication, .sendingRequest, .awaitingReply:
            return finish(.fail(.timedOut(.connect)))
        case .idle, .done:
            preconditionFailure("SOCKS5Machine: timerFired() in \(state)")
        }
    }

    /// Uses the answer awaited when it is whole; `waiting` while it is not. An answer followed
    /// by more bytes than it asked for is no SOCKS5 proxy's.
    private mutating func proceed(waiting: Action) -> Action {
        switch state {
        case .awaitingMethod:
            guard buffer.count >= 2 else { return waiting }
            guard buffer[0] == Self.version, buffer.count == 2 else { return finish(.fail(.notAProxyAnswer)) }
            switch buffer[1] {
            case Self.noAuthentication:
                return send(.sendingRequest, request)
            case Self.userAndPassword where user != nil:
                // RFC 1929: a user and a password of 1 to 255 bytes each (an empty password goes
                // as curl sends it); others are refused here rather than cut.
                guard let user, (1...255).contains(user.utf8.count), (password ?? "").utf8.count <= 255 else {
                    return finish(.fail(.proxyRefused(status: 407)))
                }
                return send(.sendingCredentials, credentialsMessage)
            case Self.noAcceptableMethod:
                return finish(.fail(.proxyRefused(status: 407)))
            default:
                // A method not offered.
                return finish(.fail(.notAProxyAnswer))
            }
        case .awaitingAuthentication:
            guard buffer.count >= 2 else { return waiting }
            guard buffer.count == 2 else { return finish(.fail(.notAProxyAnswer)) }
            // RFC 1929: status 0 is success; the version byte is not checked (servers send 1 or 5).
            return buffer[1] == 0 ? send(.sendingRequest, request) : finish(.fail(.proxyRefused(status: 407)))
        case .awaitingReply:
            guard buffer.count >= 2 else { return waiting }
            guard buffer[0] == Self.version else { return finish(.fail(.notAProxyAnswer)) }
            guard buffer[1] == 0 else { return finish(.fail(.proxyRefused(status: Int(buffer[1])))) }
            guard buffer.count >= 5 else { return waiting }
            let addressLength: Int
            switch buffer[3] {
            case 1: addressLength = 4
            case 4: addressLength = 16
            case 3: addressLength = 1 + Int(buffer[4])
            default: return finish(.fail(.notAProxyAnswer))
            }
            let length = 4 + addressLength + 2
            guard buffer.count >= length else { return waiting }
            // The origin speaks after the client: bytes past the reply are no tunnel.
            return finish(buffer.count == length ? .established : .fail(.notAProxyAnswer))
        case .idle, .sendingGreeting, .sendingCredentials, .sendingRequest, .done:
            preconditionFailure("SOCKS5Machine: an answer used in \(state)")
        }
    }


    private mutating func send(_ next: State, _ bytes: [UInt8]) -> Action {
        buffer.removeAll()
        state = next
        return .write(bytes)
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .done
        return action
    }
}

extension SOCKS5Machine.Destination {
    /// Whether it is an IPv4 address, the only destination SOCKS4 carries.
    var isIPv4: Bool {
        switch self {
        case .address(let bytes): bytes.count == 4
        case .name: false
        }
    }

    /// The IPv4 or IPv6 address of `address` (resolved for a `socks5://` tunnel); nil for one
    /// the protocol cannot carry (an IPv6 address with a scope).
    init?(_ address: SocketAddress) {
        let text = address.description
        let host: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
        } else {
            return nil
        }
        guard let bytes = IPAddressBytes.parse(String(host)) else { return nil }
        self = .address(bytes)
    }
}
