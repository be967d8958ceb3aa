import Dispatch
import Foundation
import Locking
import Synchronization

/// A provider's delivery queue: a serial queue on a thread of its own, where a transport's answers
/// arriving on an event loop run (so no caller code runs on a loop, and a slow subscriber delays
/// only its own provider). The thread starts with the first job and ends once the queue is
/// released and its jobs have run.
///
/// When its jobs are done and at most one answer is expected (`expectAnswer()`, `answerArrived()`),
/// the thread stays awake for `awakeFor`, yielding the processor, before it sleeps: an answer
/// handed over in that time (to a request sent from the completion just run, or by a caller it
/// woke) finds it running instead of waiting for a thread to wake up, which on this machine cost
/// about a third of the rate at one request in flight (BENCHMARKS.md). With more answers expected
/// the loops are busy, need the processors, and hand answers over in batches: then the thread
/// sleeps at once.
///
/// ```swift
/// let delivery = DeliveryThread(label: "NetworkDelivery")
/// delivery.expectAnswer()
/// transport.send(request) { result in
///     delivery.answerArrived()
///     delivery.async { completion(result) }
/// }
/// ```
final class DeliveryThread: Sendable {
    /// How long the thread stays awake after its last job: a little more than a loopback
    /// request's round trip, so the answer to a request sent next finds it awake.
    static let awakeFor: Duration = .microseconds(150)

    /// What the thread shares with the queue (it lives as long as the thread).
    let core: Core
    private let label: String

    /// A queue whose thread is named `label` (Linux refuses thread names over 15 bytes).
    init(label: String) {
        self.label = label
        core = Core()
    }

    deinit {
        core.stop()
    }

    /// Counts an answer that will come (a transport call started).
    func expectAnswer() {
        core.expected.add(1, ordering: .relaxed)
    }

    /// Counts an expected answer as come (or as never coming: the call was cancelled).
    func answerArrived() {
        core.expected.subtract(1, ordering: .relaxed)
    }

    /// Answers expected now (for tests and diagnostics).
    var expectedAnswers: Int { core.expected.load(ordering: .relaxed) }

    /// Whether the thread sleeps until the next job (for tests and diagnostics).
    var isAsleep: Bool { core.state.withLock { $0.sleeping } }

    /// Runs `job` on the thread, after the jobs given before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        let (start, wake) = core.state.withLock { state -> (Bool, Bool) in
            state.jobs.append(job)
            defer { state.started = true; state.sleeping = false }
            return (!state.started, state.sleeping)
        }
        if start {
            let core = self.core
            let thread = Thread { core.run() }
            thread.name = label
            thread.start()
        }
        if wake { core.wakeUp.signal() }
    }

    /// The state the thread shares with the queue; it outlives the queue until the thread ends.
    final class Core: Sendable {
        struct State {
            var jobs: [@Sendable () -> Void] = []
            var started = false
            /// The thread waits on `wakeUp`: the next job signals it.
            var sleeping = false
            var stopping = false
        }

        let state = Lock(State())
        let wakeUp = DispatchSemaphore(value: 0)
        /// Answers expected: transport calls started and not yet answered or cancelled.
        let expected = Atomic<Int>(0)

        func stop() {
            let wake = state.withLock { state -> Bool in
                state.stopping = true
                defer { state.sleeping = false }
                return state.sleeping
            }
            if wake { wakeUp.signal() }
        }

        /// The thread's loop: run the jobs in order; when there are none, stay awake a moment,
        /// then sleep until a job or the stop comes.
        func run() {
            var batch: [@Sendable () -> Void] = []
            while true {
                batch.removeAll(keepingCapacity: true)
                let stopping = state.withLock { state -> Bool in
                    swap(&state.jobs, &batch)
                    return state.stopping
                }
                if !batch.isEmpty {
                    for job in batch { job() }
                    continue
                }
                if stopping { return }
                if staysAwakeUntilWork() { continue }
                let sleeps = state.withLock { state -> Bool in
                    guard state.jobs.isEmpty, !state.stopping else { return false }
                    state.sleeping = true
                    return true
                }
                if sleeps { wakeUp.wait() }
            }
        }

        /// Yields the processor until a job or the stop comes (true) or `awakeFor` has passed;
        /// false at once when more than one answer is expected.
        private func staysAwakeUntilWork() -> Bool {
            guard expected.load(ordering: .relaxed) <= 1 else { return false }
            let clock = ContinuousClock()
            let until = clock.now + DeliveryThread.awakeFor
            while clock.now < until {
                NetworkingPlatform.yieldProcessor()
                if state.withLock({ !$0.jobs.isEmpty || $0.stopping }) { return true }
            }
            return false
        }
    }
}
