import EventLoopIO
import Locking

/// The bridge between one `async` `execute` and its exchange: whichever comes first, the answer
/// or the task's cancellation, resumes the caller once; a cancellation also cancels the exchange,
/// even one that had not started yet.
final class PendingExecution: Sendable {
    typealias Answer = Result<HTTPClientResponse, HTTPClientError>
    /// Resumed exactly once: the state below hands it out once, to the answer or the cancellation.
    typealias Continuation = UnsafeContinuation<Answer, Never>

    private enum State {
        case notStarted
        case running(Continuation, (any HTTPClientTask)?)
        case cancelledEarly
        case done
    }

    private let state = Lock(State.notStarted)

    /// Stores `continuation` and starts the exchange with `start`, unless the task was cancelled
    /// already (then it resumes with `.cancelled` and starts nothing).
    func begin(_ continuation: Continuation, start: () -> any HTTPClientTask) {
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

    /// The exchange answered: resumes the caller unless a cancellation did first. The answer is
    /// claimed at once (a cancellation after this changes nothing); on a loop's thread the resume
    /// itself waits for the end of the loop's round, with the round's other answers
    /// (`RoundResumes`), so that answers arriving together wake the callers' executor once.
    func finish(_ answer: Answer) {
        let continuation = state.withLock { state -> Continuation? in
            guard case .running(let continuation, _) = state else { return nil }
            state = .done
            return continuation
        }
        guard let continuation else { return }
        guard let loop = EventLoop.current else { return continuation.resume(returning: answer) }
        RoundResumes.forCurrentThread(loop).add(continuation, answer)
    }

    /// The caller's task was cancelled: cancels the exchange and resumes with `.cancelled`.
    func cancel() {
        let (continuation, task) = state.withLock { state -> (Continuation?, (any HTTPClientTask)?) in
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
