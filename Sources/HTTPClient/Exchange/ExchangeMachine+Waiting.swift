/// Starting and waiting: the request's target read, its place in the pool's queue, the lease that
/// ends the wait (a connection, or the failure of the connect the pool opened), and the connect
/// timer that bounds the wait.
extension ExchangeMachine {
    /// The request's target was read (`target`), or could not be (`failure`): ask the pool,
    /// unless the overall deadline passed already (`deadlinePassed`): then it fails at once, and
    /// no connection is opened for a request that cannot use it.
    mutating func begin(_ read: Result<SocketRequestTarget, ExchangeFailure>, deadlinePassed: Bool = false) -> Action {
        switch phase {
        case .idle:
            switch read {
            case .success(let target):
                self.target = target
                if deadlinePassed { return finish(.fail(.timedOut(.overall))) }
                phase = .waiting
                return .acquire(target.key, armWaitTimer: !hasOverallDeadline)
            case .failure(let failure):
                target = nil
                return finish(.fail(failure))
            }
        case .done:
            // A redirect's next hop, started in a task of its own, after a cancel or the overall deadline.
            return .none
        case .waiting, .sending, .receiving:
            // Begun once, and again only for a followed redirect, which leaves the exchange idle.
            impossible(.begin)
        }
    }

    /// The pool's lease reached the loop (an `https` connection secured by the pool's opener);
    /// `isClosed` polls a kept connection for a request that may not be sent
    /// twice (an idempotent one is not polled: its loop watched it while idle, and a retry covers
    /// a close since). A lease that arrives after the exchange ended (cancelled, timed out) goes
    /// back unused.
    mutating func leased(_ lease: Lease, isClosed: () -> Bool) -> Action {
        switch (phase, lease) {
        case (.waiting, .failed(let failure)):
            // The connect the pool opened while this exchange was first in line failed: no slot is held.
            return finish(.fail(failure))
        case (.waiting, .connected):
            return use(reused: false, polls: false, isClosed: isClosed)
        case (.waiting, .reused), (.waiting, .handedOver):
            // A request that may not be sent twice polls the kept connection first.
            return use(reused: true, polls: !idempotent, isClosed: isClosed)
        case (.done, .failed):
            // Cancelled or timed out while the connect's failure was on its way: nothing to give back.
            return .none
        case (.done, .connected), (.done, .reused), (.done, .handedOver):
            // Cancelled or timed out while the lease was on its way: it goes back unused.
            return .returnLease
        case (.idle, _), (.sending, _), (.receiving, _):
            // The pool leases once per wait: a waiter leaves its queue as it is served, and only
            // `waiting` queues (the first hop's `begin`, a redirect's, a reconnect).
            impossible(.leased)
        }
    }

    /// Takes the leased connection (holding its slot) and sends, unless (when it `polls`)
    /// `isClosed` says a kept one was closed meanwhile.
    mutating func use(reused: Bool, polls: Bool, isClosed: () -> Bool) -> Action {
        holdsSlot = true
        attempt = 0
        self.reused = reused
        guard polls, isClosed() else { return startAttempt() }
        return reconnect()
    }

    /// The connect timer fired while waiting for a connection (it bounds the wait, the pool's
    /// connect and handshake included, unless an overall deadline does).
    mutating func connectTimerFired() -> Action {
        switch phase {
        case .waiting:
            return finish(.fail(.timedOut(.connect)), leaveQueue: true)
        case .done:
            // A late fire: the driver cancels the timer as the exchange ends.
            return .none
        case .idle, .sending, .receiving:
            // Every action out of waiting cancels it (`send` uses the connection, `finish`
            // stops the hop); only `acquire` and `reconnect` arm it.
            impossible(.connectTimerFired)
        }
    }
}
