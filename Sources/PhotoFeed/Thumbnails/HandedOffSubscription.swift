import Locking
import Reactive

/// The subscription of a load waiting in `LoadGate`, made on whichever thread's finish started the job while
/// the job's own subscriber may dispose it from another thread at the same moment.
///
/// Whoever ends the job frees its place for the next one, and that must wait until the work is
/// really cancelled: a dispose that arrives while another thread is still subscribing (sending
/// the request) does not end the job. The subscribing thread disposes the new subscription as
/// soon as it has it (which cancels the request) and then ends the job itself. Otherwise the
/// next job would start while the disposed one's request is still out, one more than the limit.
///
/// ```swift
/// let work = HandedOffSubscription()
/// let start = { if work.subscribe({ request.subscribe { _ in gate.finish(id) } }) { gate.finish(id) } }
/// return Disposables.create { if work.dispose() { gate.finish(id) } }
/// ```
final class HandedOffSubscription: Sendable {
    private enum Phase {
        case notStarted
        case subscribing
        /// Disposed while `subscribing`: the subscribing thread ends the job.
        case disposedWhileSubscribing
        case subscribed
        case disposed
    }

    private let phase = Lock(Phase.notStarted)
    private let subscription = SingleAssignmentDisposable()

    /// Makes the subscription with `make`, unless disposed already. True when a dispose came
    /// while `make` ran: the subscription is disposed by the time this returns, and ending the
    /// job is the caller's.
    func subscribe(_ make: () -> any Disposable) -> Bool {
        let proceed = phase.withLock { phase -> Bool in
            guard case .notStarted = phase else { return false }
            phase = .subscribing
            return true
        }
        guard proceed else { return false }
        // a dispose during `make` disposed `subscription`, so setting it disposes the new one
        subscription.setDisposable(make())
        return phase.withLock { phase -> Bool in
            guard case .subscribing = phase else { return true }
            phase = .subscribed
            return false
        }
    }

    /// Disposes the subscription (or keeps it from being made). True when the caller ends the
    /// job now; false while another thread is still subscribing, which then ends it.
    func dispose() -> Bool {
        let endsNow = phase.withLock { phase -> Bool in
            switch phase {
            case .subscribing:
                phase = .disposedWhileSubscribing
                return false
            case .disposedWhileSubscribing:
                return false
            case .notStarted, .subscribed, .disposed:
                phase = .disposed
                return true
            }
        }
        subscription.dispose()
        return endsNow
    }
}
