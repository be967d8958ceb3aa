/// TLS failing at any step of a secure connection (the pool's opener ran its handshake).
extension ExchangeMachine {
    /// TLS failed (a record, an alert, the library), while sending or receiving.
    mutating func tlsFailed(_ failure: ExchangeFailure) -> Action {
        switch phase {
        case .sending, .receiving:
            return finish(.fail(failure), disposal: .close)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }
}
