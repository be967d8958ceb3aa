/// Securing: the TLS handshake of a new `https` connection, and TLS failing at any step.
extension ExchangeMachine {
    /// The TLS handshake completed: the request goes out.
    mutating func handshakeCompleted() -> Action {
        switch phase {
        case .securing:
            return startAttempt()
        case .done:
            // The exchange ended earlier in the same read's TLS actions: nothing to send.
            return .none
        case .idle, .waiting, .sending, .receiving:
            // A TLS machine completes its handshake once, and the exchange makes one only in
            // `secure`; a pooled connection is secured already.
            impossible(.handshakeCompleted)
        }
    }

    /// TLS failed (the handshake, a certificate, the library or the context), at any step.
    mutating func tlsFailed(_ failure: ExchangeFailure) -> Action {
        switch phase {
        case .securing, .sending, .receiving:
            return finish(.fail(failure), disposal: .close)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }
}
