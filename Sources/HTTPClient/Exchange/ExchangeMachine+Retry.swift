/// The one retry: a kept-alive connection the server had closed before the request gives its slot
/// up, and an idempotent request goes once more on a new connection.
extension ExchangeMachine {
    /// Gives the current connection up (closed: the server closed it, or it went stale) and asks
    /// the pool for a new one, ahead of the requests sent later.
    mutating func reconnect() -> Action {
        reused = false
        retried = true
        holdsSlot = false
        phase = .waiting
        return .reconnect(armWaitTimer: !hasOverallDeadline)
    }

    /// A kept-alive connection the server had closed before this request: an idempotent request
    /// goes once more on a new connection.
    var retryApplies: Bool {
        reused && !retried && attempt == 1 && !receivedAny && idempotent && request.body?.isReplayable ?? true
    }

    mutating func lost(errno: Int32) -> Action {
        guard retryApplies else { return finish(.fail(.connectionLost(errno: errno)), disposal: .close) }
        return reconnect()
    }
}
