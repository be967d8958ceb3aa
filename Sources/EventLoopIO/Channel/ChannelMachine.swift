/// The decisions of a `Channel`, a connection's byte side: what the loop watches its socket for,
/// whether its one timer is kept, armed again or has expired, whether bytes may still be queued,
/// and that it closes once. A value on the channel's loop: events in, actions out, every
/// (state, event) pair handled by name; the pairs a driver cannot produce stop with a
/// `preconditionFailure` naming them.
public struct ChannelMachine: Sendable {
    /// Where the channel is.
    public enum State: Equatable, Sendable {
        /// Open: the facts its next decisions depend on.
        case open(Open)
        /// Closed: its socket is closed, nothing is watched or armed.
        case closed
    }

    /// An open channel's facts.
    public struct Open: Equatable, Sendable {
        /// Whether its owner waits for bytes (read interest: backpressure when false).
        var reading = false
        /// Whether the socket is registered with the loop.
        var registered = false
        /// Our side is shut (a lingering close): nothing more is queued.
        var writeShut = false
        /// When the owner's current wait gives up (nil: never).
        var deadline: MonotonicTime?
        /// When the armed timer fires (nil: none armed); it may be earlier than `deadline`.
        var timerDue: MonotonicTime?
    }

    /// What the loop should watch the socket for.
    public enum Interest: Equatable, Sendable {
        /// Leave the registration as it is.
        case unchanged
        /// Register the socket for this readiness (the first time).
        case register(readable: Bool, writable: Bool)
        /// Change the registered socket's readiness.
        case change(readable: Bool, writable: Bool)
        /// Stop watching it (neither reading nor writing waits).
        case deregister
    }

    /// What to do with the timer after a deadline changed.
    public enum TimerChange: Equatable, Sendable {
        /// The armed timer fires early enough (it arms itself again for the rest), or none is needed.
        case keep
        /// Cancel the armed timer (no deadline now).
        case cancel
        /// Cancel any armed timer and arm one at this instant.
        case arm(MonotonicTime)
    }

    /// What a timer that fired means.
    public enum Expiry: Equatable, Sendable {
        /// The deadline moved later since it was armed: arm again at this instant.
        case rearm(MonotonicTime)
        /// The owner's wait gave up.
        case expired
    }

    /// What closing takes.
    public enum Closing: Equatable, Sendable {
        /// Cancel the timer when `cancelTimer`, deregister when `deregister`, then close the socket.
        case close(cancelTimer: Bool, deregister: Bool)
        /// Closed already: nothing.
        case alreadyClosed
    }

    public private(set) var state: State = .open(Open())

    public init() {}

    /// Whether the channel is closed.
    public var isClosed: Bool { state == .closed }

    /// Whether bytes may be queued (open, and our side not shut).
    public var acceptsOutput: Bool {
        switch state {
        case .open(let open): !open.writeShut
        case .closed: false
        }
    }

    /// The owner waits for bytes (`reading`), or not; `pending` says whether bytes wait to be
    /// written. Watched for what either needs, not at all when neither does.
    public mutating func interest(reading: Bool, pending: Bool) -> Interest {
        switch state {
        case .open(var open):
            open.reading = reading
            let decision: Interest
            if !reading && !pending {
                decision = open.registered ? .deregister : .unchanged
                open.registered = false
            } else if open.registered {
                decision = .change(readable: reading, writable: pending)
            } else {
                decision = .register(readable: reading, writable: pending)
                open.registered = true
            }
            state = .open(open)
            return decision
        case .closed:
            preconditionFailure("ChannelMachine: (closed, interest)")
        }
    }

    /// The owner's current read interest, for a change in what is pending.
    public var reading: Bool {
        guard case .open(let open) = state else { return false }
        return open.reading
    }

    /// The channel has a new owner (`pending`: bytes wait to be written): a registered socket is
    /// registered again, for the new owner, watched for what it was; an unregistered or closed
    /// one has nothing to move.
    public mutating func ownerChanged(pending: Bool) -> Interest {
        switch state {
        case .open(let open):
            return open.registered ? .register(readable: open.reading, writable: pending) : .unchanged
        case .closed:
            return .unchanged
        }
    }

    /// The channel waits for its next owner: watched for nothing, whether bytes are queued or not
    /// (the next owner's `interest` watches it again, for room too while they wait).
    public mutating func unwatch() -> Interest {
        switch state {
        case .open(var open):
            let decision: Interest = open.registered ? .deregister : .unchanged
            open.reading = false
            open.registered = false
            state = .open(open)
            return decision
        case .closed:
            preconditionFailure("ChannelMachine: (closed, unwatch)")
        }
    }

    /// The loop refused to watch the socket: it counts as unregistered (the owner closes it).
    public mutating func registrationRefused() {
        switch state {
        case .open(var open):
            open.registered = false
            state = .open(open)
        case .closed:
            preconditionFailure("ChannelMachine: (closed, registrationRefused)")
        }
    }

    /// The owner's wait now gives up at `due` (nil: never). A timer armed to fire
    /// earlier is kept: a kept-alive connection moves a deadline instead of re-arming a timer.
    public mutating func deadline(_ due: MonotonicTime?) -> TimerChange {
        switch state {
        case .open(var open):
            open.deadline = due
            let change: TimerChange
            switch (due, open.timerDue) {
            case (nil, nil):
                change = .keep
            case (nil, .some):
                open.timerDue = nil
                change = .cancel
            case (.some(let due), .some(let armed)) where armed <= due:
                change = .keep
            case (.some(let due), _):
                open.timerDue = due
                change = .arm(due)
            }
            state = .open(open)
            return change
        case .closed:
            preconditionFailure("ChannelMachine: (closed, deadline)")
        }
    }

    /// The armed timer fired at `now`.
    public mutating func timerFired(now: MonotonicTime) -> Expiry {
        switch state {
        case .open(var open):
            // A timer is armed only for a deadline, and cancelled when the deadline is cleared.
            guard open.timerDue != nil, let deadline = open.deadline else {
                preconditionFailure("ChannelMachine: (open without a deadline, timerFired)")
            }
            let expiry: Expiry
            if now < deadline {
                open.timerDue = deadline
                expiry = .rearm(deadline)
            } else {
                open.timerDue = nil
                open.deadline = nil
                expiry = .expired
            }
            state = .open(open)
            return expiry
        case .closed:
            // Closing cancels the timer, and a cancelled timer never fires.
            preconditionFailure("ChannelMachine: (closed, timerFired)")
        }
    }

    /// Our side is shut (a lingering close): nothing more is queued.
    public mutating func writeShut() {
        switch state {
        case .open(var open):
            open.writeShut = true
            state = .open(open)
        case .closed:
            preconditionFailure("ChannelMachine: (closed, writeShut)")
        }
    }

    /// The owner closes the channel (any number of times; the first closes it).
    public mutating func close() -> Closing {
        switch state {
        case .open(let open):
            state = .closed
            return .close(cancelTimer: open.timerDue != nil, deregister: open.registered)
        case .closed:
            return .alreadyClosed
        }
    }
}
