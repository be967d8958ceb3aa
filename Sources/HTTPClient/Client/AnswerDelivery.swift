import Dispatch
import EventLoopIO
import Locking

/// Where answers that arrive on an event loop run, decided in one place for `HTTPClient` and
/// `Networking`'s `NetworkProvider` alike: on the queue the caller gave, else on a serial queue of
/// that client's or provider's own that targets one shared queue. No caller code runs on a loop,
/// no thread waits or spins while idle, and one owner's slow completion delays only its own answers.
///
/// Work handed over on a loop's thread is gathered per queue until the loop has handled the
/// round's events, then sent to each queue in one block: answers that arrive together wake a
/// queue's thread once, in the order they arrived.
package enum AnswerDelivery {
    /// The queue every owner's own delivery queue targets: the global queue itself. A concurrent
    /// queue of our own between them made libdispatch wrap every block it passed on to the global
    /// queue in one more continuation (an allocation per hand-off), and bought nothing: serial
    /// queues on it still run one at a time each, on the dispatch pool's threads.
    package static var sharedTarget: DispatchQueue { .global() }

    /// `given` when there is one; else a new serial queue named `label` on the shared target.
    package static func queue(_ given: DispatchQueue?, label: String) -> DispatchQueue {
        given ?? DispatchQueue(label: label, target: sharedTarget)
    }

    /// Runs `work` on `queue`, after the work handed to it before: on an event loop's thread,
    /// with the rest of the round's work for that queue; elsewhere at once.
    package static func async(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        guard let loop = EventLoop.current else { return queue.async(execute: work) }
        RoundBatches.forCurrentThread(loop).add(work, for: queue)
    }

    /// Runs `work`, the package's own (never a caller's), on an event loop's thread once the
    /// round's events are handled, with the round's other such work, after the work handed to
    /// queues has gone to them; elsewhere at once. For an answer that only wakes a task: the wakes of one round
    /// then come together, as `RoundResumes` gathers `HTTPClient`'s own.
    package static func atEndOfRound(_ work: @escaping @Sendable () -> Void) {
        guard let loop = EventLoop.current else { return work() }
        RoundBatches.forCurrentThread(loop).addHere(work)
    }

    /// The work gathered on one loop's thread during a round: per queue, a queue's first job
    /// alone (the common case, one answer a round), the rest in an array made only for them;
    /// and the package's own work that runs on the loop itself (`here`).
    private final class RoundBatches: PerLoopThread {
        private struct Batch {
            let queue: DispatchQueue
            let first: @Sendable () -> Void
            var more: [@Sendable () -> Void] = []
        }

        static let key = ThreadSpecificKey()
        private let loop: EventLoop
        private var batches: [Batch] = []
        private var here: [@Sendable () -> Void] = []
        /// `here` while it runs, swapped with it: kept with its capacity, no array a round.
        private var runningHere: [@Sendable () -> Void] = []
        /// Made once: handed to the loop at every round that gathers work.
        private lazy var flushAtEndOfRound: () -> Void = { [unowned self] in flush() }

        init(loop: EventLoop) {
            self.loop = loop
        }

        func add(_ work: @escaping @Sendable () -> Void, for queue: DispatchQueue) {
            if batches.isEmpty, here.isEmpty { loop.executeAtEndOfRound(flushAtEndOfRound) }
            if let index = batches.firstIndex(where: { $0.queue === queue }) {
                batches[index].more.append(work)
            } else {
                batches.append(Batch(queue: queue, first: work))
            }
        }

        func addHere(_ work: @escaping @Sendable () -> Void) {
            if batches.isEmpty, here.isEmpty { loop.executeAtEndOfRound(flushAtEndOfRound) }
            here.append(work)
        }

        /// Hands each queue its batch, then runs the loop's own work, which finds both lists
        /// empty: what it adds is gathered for another flush.
        private func flush() {
            for batch in batches {
                guard !batch.more.isEmpty else {
                    batch.queue.async(execute: batch.first)
                    continue
                }
                let (first, more) = (batch.first, batch.more)
                batch.queue.async {
                    first()
                    for job in more { job() }
                }
            }
            batches.removeAll(keepingCapacity: true)
            swap(&here, &runningHere)
            for work in runningHere { work() }
            runningHere.removeAll(keepingCapacity: true)
        }
    }
}
