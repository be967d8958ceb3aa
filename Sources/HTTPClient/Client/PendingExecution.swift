import Locking

/// The bridge between one `async` `execute` and its exchange: whichever comes first, the answer
/// or the task's cancellation, resumes the caller once; a cancellation also cancels the exchange,
/// even one that had not started yet.
final class PendingExecution: Sendable {
    typealias Answer = Result<HTTPClientResponse, HTTPClientError>

    private enum State {
        case notStarted
        case running(CheckedContinuation<Answer, Never>, (any HTTPClientTask)?)
        case cancelledEarly
        case done
    }

    private let state = Lock(State.notStarted)

    /// Stores `continuation` and starts the exchange with `start`, unless the task was cancelled
    /// already (then it resumes with `.cancelled` and starts nothing).
    func begin(_ continuation: CheckedContinuation<Answer, Never>, start: () -> any HTTPClientTask) {
        let proceed = state.withLock { state -> Bool in
            guard case .notStarted = state else { return false }
            state = .running(continuation, nil)
            return true
        }
        guard proceed else { return continuation.resume(returning: .failure(.cancelled)) }
        let task = start()
        let cancelNow = state.withLock { state -> Bool in
            switch state {
            case .running(let continuation, nil):
                state = .running(continuation, task)
                return false
            case .cancelledEarly:
                state = .done
                return true
            default:
                return false
            }
        }
        if cancelNow { task.cancel() }
    }

    /// The exchange answered: resumes the caller unless a cancellation did first.
    func finish(_ answer: Result<HTTPClientResponse, HTTPClientError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
            guard case .running(let continuation, _) = state else { return nil }
            state = .done
            return continuation
        }
        continuation?.resume(returning: answer)
    }

    /// The caller's task was cancelled: cancels the exchange and resumes with `.cancelled`.
    func cancel() {
        let (continuation, task) = state.withLock { state -> (CheckedContinuation<Answer, Never>?, (any HTTPClientTask)?) in
            switch state {
            case .notStarted:
                state = .cancelledEarly
                return (nil, nil)
            case .running(let continuation, let task):
                // Without a task yet, `begin` cancels it as soon as it has one.
                state = task == nil ? .cancelledEarly : .done
                return (continuation, task)
            case .cancelledEarly, .done:
                return (nil, nil)
            }
        }
        task?.cancel()
        continuation?.resume(returning: .failure(.cancelled))
    }
}
