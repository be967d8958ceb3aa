import Foundation
import HTTPWire

/// The end: the timers, the caller's cancel, the download file closed after the report, and
/// `finish`, the one way an exchange ends.
extension ExchangeMachine {
    /// The idle timer fired; `idleFor` is the time since bytes last moved.
    mutating func idleTimerFired(idleFor: Duration, idleTimeout: Duration) -> Action {
        switch phase {
        case .sending, .receiving:
            guard idleFor >= idleTimeout else { return .rearmIdleTimer }
            return finish(.fail(.timedOut(.idle)), disposal: .close)
        case .waiting:
            // The last attempt's timer, left armed by a reconnect: the connect timer (or the
            // overall deadline) bounds this wait, and `send` arms the idle timer again.
            return .none
        case .done:
            // A late fire: the driver cancels the timer as the exchange ends.
            return .none
        case .idle:
            // Armed only by `send` and `rearmIdleTimer`; the `finish` that leaves a hop idle cancels it.
            impossible(.idleTimerFired)
        }
    }

    /// The download file was closed after its last write, as the exchange reports `succeeded`
    /// (a response) or not; `fileFailed` when the file met an error. Whether the report becomes
    /// `downloadFailed`.
    mutating func downloadClosed(succeeded: Bool, fileFailed: Bool) -> Bool {
        switch phase {
        case .done:
            return download.finished(succeeded: succeeded, fileFailed: fileFailed) == .failDownload
        case .idle, .waiting, .sending, .receiving:
            // The driver reports (and closes the file) only after the `finish` that ends the exchange.
            impossible(.downloadClosed)
        }
    }

    /// The overall deadline passed.
    mutating func overallTimerFired() -> Action {
        switch phase {
        case .idle, .sending, .receiving:
            return finish(.fail(.timedOut(.overall)), disposal: .close)
        case .waiting:
            return finish(.fail(.timedOut(.overall)), leaveQueue: true, disposal: .close)
        case .done:
            // A late fire: the driver cancels the timer as it reports.
            return .none
        }
    }

    /// The caller cancelled (the driver's lock decided it came before any report).
    mutating func cancel() -> Action {
        switch phase {
        case .idle, .sending, .receiving:
            return finish(.tearDown, disposal: .close)
        case .waiting:
            return finish(.tearDown, leaveQueue: true, disposal: .close)
        case .done:
            // The exchange ended (reported, failed, timed out) before the cancel's task ran.
            return .none
        }
    }

    /// Ends the exchange: the connection goes as `disposal` says when a slot is held (else nowhere).
    mutating func finish(_ outcome: Outcome, leaveQueue: Bool = false, disposal: Disposal = .close) -> Action {
        let action = Action.finish(leaveQueue: leaveQueue, disposal: holdsSlot ? disposal : .none, outcome: outcome)
        holdsSlot = false
        phase = .done
        return action
    }
}
