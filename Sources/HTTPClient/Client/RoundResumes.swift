import EventLoopIO
import Locking

/// The `async` callers' answers that arrived during one round of a loop, resumed together once
/// the round's events are handled: each resume hands a task to the callers' executor, which
/// wakes one of its threads when it had nothing queued, so resumes made back to back wake it
/// once a round instead of once an answer. Confined to its loop's thread.
final class RoundResumes: PerLoopThread {
    static let key = ThreadSpecificKey()
    private let loop: EventLoop
    private var pending: [(PendingExecution.Continuation, PendingExecution.Answer)] = []
    /// The batch being resumed, swapped with `pending`: kept with its capacity, no array a round.
    private var resuming: [(PendingExecution.Continuation, PendingExecution.Answer)] = []
    /// Made once: handed to the loop at every round that gathers answers.
    private lazy var resumeAtEndOfRound: () -> Void = { [unowned self] in resumeAll() }

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Resumes `continuation` with `answer` at the end of the current round.
    func add(_ continuation: PendingExecution.Continuation, _ answer: PendingExecution.Answer) {
        loop.assertInLoop()
        if pending.isEmpty { loop.executeAtEndOfRound(resumeAtEndOfRound) }
        pending.append((continuation, answer))
    }

    private func resumeAll() {
        swap(&pending, &resuming)
        for (continuation, answer) in resuming { continuation.resume(returning: answer) }
        resuming.removeAll(keepingCapacity: true)
    }
}
