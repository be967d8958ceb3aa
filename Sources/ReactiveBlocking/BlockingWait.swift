import Dispatch
import Foundation
import Locking
import Reactive

/// One blocking wait: subscribes, feeds the events to a `BlockingCollection`, and holds the
/// calling thread until the collection is over or the deadline passes.
///
/// On the main thread it runs the main run loop meanwhile, as RxBlocking does, so that work on
/// `MainScheduler` (the main queue) still runs; elsewhere it sleeps on a semaphore.
final class BlockingWait<Element: Sendable>: Sendable {
    private let collection: Lock<BlockingCollection<Element>>
    /// Runs on the emitting thread for each element, outside the lock.
    private let predicate: (@Sendable (Element) throws -> Bool)?
    private let subscription = SingleAssignmentDisposable()
    private let over = DispatchSemaphore(value: 0)
    /// Whether the waiter runs the main run loop, which an empty main-queue block wakes.
    private let waitsOnMainRunLoop: Bool

    init(limit: Int?, predicate: (@Sendable (Element) throws -> Bool)?) {
        collection = Lock(BlockingCollection(limit: limit))
        self.predicate = predicate
        waitsOnMainRunLoop = Thread.isMainThread
    }

    /// Subscribes to `source` and returns how it ended, or a `ReactiveError.timeout` failure
    /// once `timeout` seconds passed; the subscription is disposed either way.
    func run(_ source: Observable<Element>, timeout: TimeInterval?) -> MaterializedSequenceResult<Element> {
        assert(!LoopThreadMark.isSet, """
            toBlocking() called on an event loop's thread: the loop would wait for answers only it \
            can bring (await the sequence's `values` or `value` there instead)
            """)
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        subscription.setDisposable(source.subscribe { [self] event in receive(event) })
        if waitsOnMainRunLoop { runMainRunLoop(until: deadline) } else { sleep(until: deadline) }
        if !isOver { feed(.timedOut) }
        subscription.dispose()
        guard let result = collection.withLock({ $0.result }) else {
            preconditionFailure("BlockingWait: (collecting, timedOut) must have ended the wait")
        }
        return result
    }

    private var isOver: Bool { collection.withLock { $0.isOver } }

    private func runMainRunLoop(until deadline: Date?) {
        let limit = deadline ?? .distantFuture
        while !isOver && Date() < limit {
            // `false`: nothing can run on this run loop (no main queue to drain); just sleep.
            if !RunLoop.current.run(mode: .default, before: limit) { return sleep(until: deadline) }
        }
    }

    private func sleep(until deadline: Date?) {
        guard let deadline else { return over.wait() }
        _ = over.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow))
    }

    private func receive(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard let predicate else { return feed(.element(element)) }
            guard !isOver else { return }
            do {
                if try predicate(element) { feed(.element(element)) }
            } catch {
                feed(.failed(error))
            }
        case .error(let error): feed(.failed(error))
        case .completed: feed(.completed)
        }
    }

    private func feed(_ input: BlockingCollection<Element>.Input) {
        guard collection.withLock({ $0.handle(input) }) == .finish else { return }
        subscription.dispose()
        over.signal()
        if waitsOnMainRunLoop { DispatchQueue.main.async {} }
    }
}
