import HTTPWire

/// Every decision of opening a `CONNECT` tunnel through an HTTP proxy on a connection just made
/// to it, as a value: it takes what happened (started, the request written, bytes read, the end of
/// the stream, a failed read or write, the timer) and returns the one action to perform next.
/// A 2xx answer opens the tunnel (RFC 9110 §9.3.6); any other status is `proxyRefused` with it
/// (407 when the proxy wants other credentials). `ProxyTunnel` drives it on the connection's loop.
struct ProxyTunnelMachine: TunnelNegotiation {
    enum State: Equatable, Sendable {
        /// Made, not started.
        case idle
        /// The `CONNECT` request going out.
        case sending
        /// The request is out: the proxy's answer is read.
        case awaitingAnswer
        /// Established or failed: nothing follows.
        case done
    }

    /// What the driver does next (the negotiations' shared actions).
    typealias Action = TunnelAction

    private(set) var state = State.idle
    /// The origin's host (no brackets) and port, and the `Proxy-Authorization` value, if any.
    let host: String
    let port: UInt16
    let authorization: String?
    private var parser = HTTPHeadParser(maxHeaderBytes: 16_384)

    var isSending: Bool {
        switch state {
        case .sending: true
        case .idle, .awaitingAnswer, .done: false
        }
    }

    var isNegotiating: Bool {
        switch state {
        case .sending, .awaitingAnswer: true
        case .idle, .done: false
        }
    }

    init(host: String, port: UInt16, authorization: String?) {
        self.host = host
        self.port = port
        self.authorization = authorization
    }

    /// The request: `CONNECT host:port` in authority form, `Host` the same, the credentials.
    var request: [UInt8] {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var headers = HTTPHeaders([HTTPHeaders.Field(name: "Host", value: authority)])
        if let authorization { headers.add(name: "Proxy-Authorization", value: authorization) }
        return HTTPRequestHead(method: "CONNECT", target: authority, headers: headers).serialized()
    }

    /// The connection to the proxy is open: the request goes out.
    mutating func start() -> Action {
        switch state {
        case .idle:
            state = .sending
            return .write(request)
        case .sending, .awaitingAnswer, .done:
            preconditionFailure("ProxyTunnelMachine: start() in \(state)")
        }
    }

    /// The whole request is out.
    mutating func written() -> Action {
        switch state {
        case .sending:
            state = .awaitingAnswer
            return .awaitAnswer
        case .idle, .awaitingAnswer, .done:
            preconditionFailure("ProxyTunnelMachine: written() in \(state)")
        }
    }

    /// Bytes of the answer arrived (a proxy may answer before it has read the whole request).
    mutating func received(_ bytes: ArraySlice<UInt8>) -> Action {
        switch state {
        case .sending, .awaitingAnswer:
            parser.feed(bytes)
            do throws(HTTPWireError) {
                while let head = try parser.nextResponseHead() {
                    // Interim answers (100 Continue) come before the final one; a 101 is none: the
                    // protocol would switch right after it (RFC 9110 §15.2.2), so it refuses.
                    if (100..<200).contains(head.status), head.status != 101 { continue }
                    return answered(head.status)
                }
                return .none
            } catch {
                return finish(.fail(.response(error)))
            }
        case .idle, .done:
            preconditionFailure("ProxyTunnelMachine: received(_:) in \(state)")
        }
    }

    /// The proxy closed the connection before a whole answer.
    mutating func endOfStream() -> Action {
        switch state {
        case .sending, .awaitingAnswer:
            return finish(.fail(.connectionLost(errno: nil)))
        case .idle, .done:
            preconditionFailure("ProxyTunnelMachine: endOfStream() in \(state)")
        }
    }

    /// A read failed with `errno`.
    mutating func readFailed(errno: Int32) -> Action {
        switch state {
        case .sending, .awaitingAnswer:
            return finish(.fail(.connectionLost(errno: errno)))
        case .idle, .done:
            preconditionFailure("ProxyTunnelMachine: readFailed(errno:) in \(state)")
        }
    }

    /// The proxy stopped taking the request (the system's error number is not known here).
    mutating func writeFailed() -> Action {
        switch state {
        case .sending:
            return finish(.fail(.connectionLost(errno: nil)))
        case .idle, .awaitingAnswer, .done:
            preconditionFailure("ProxyTunnelMachine: writeFailed() in \(state)")
        }
    }

    /// The connect deadline passed before the proxy answered.
    mutating func timerFired() -> Action {
        switch state {
        case .sending, .awaitingAnswer:
            return finish(.fail(.timedOut(.connect)))
        case .idle, .done:
            preconditionFailure("ProxyTunnelMachine: timerFired() in \(state)")
        }
    }

    private mutating func answered(_ status: Int) -> Action {
        guard (200..<300).contains(status) else { return finish(.fail(.proxyRefused(status: status))) }
        // The origin speaks TLS, whose first bytes are the client's: bytes already here are no tunnel.
        guard parser.isEmpty else { return finish(.fail(.notAProxyAnswer)) }
        return finish(.established)
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .done
        return action
    }
}
