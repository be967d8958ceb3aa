import Locking
import Synchronization

/// Runs jobs one at a time, in the order they were enqueued. A job holds the queue until
/// `finish` is called with its ticket; finishing a job that has not started removes it.
final class LoadQueue: Sendable {
    /// Work that starts when its turn comes; it must call `finish(ticket)` when it ends.
    typealias Job = @Sendable (_ ticket: UInt64) -> Void

    private struct Pending {
        let ticket: UInt64
        let job: Job
    }

    private struct State {
        var nextTicket: UInt64 = 0
        var running: UInt64?
        var pending: [Pending] = []
    }

    private let state = Lock(State())

    /// Queues `job`, running it at once (on this thread) when nothing else runs; returns its ticket.
    @discardableResult
    func enqueue(_ job: @escaping Job) -> UInt64 {
        let (ticket, startsNow) = state.withLock { state -> (UInt64, Bool) in
            let ticket = state.nextTicket
            state.nextTicket += 1
            if state.running == nil {
                state.running = ticket
                return (ticket, true)
            }
            state.pending.append(Pending(ticket: ticket, job: job))
            return (ticket, false)
        }
        if startsNow { job(ticket) }
        return ticket
    }

    /// Ends the job of `ticket` (running or waiting) and starts the next one; idempotent.
    func finish(_ ticket: UInt64) {
        let next = state.withLock { state -> Pending? in
            guard state.running == ticket else {
                state.pending.removeAll { $0.ticket == ticket }
                return nil
            }
            guard !state.pending.isEmpty else {
                state.running = nil
                return nil
            }
            let next = state.pending.removeFirst()
            state.running = next.ticket
            return next
        }
        if let next { next.job(next.ticket) }
    }
}
