import Synchronization

extension Observable {
    /// The given elements, then completion.
    public static func of(_ elements: Element...) -> Observable<Element> {
        from(elements)
    }

    /// The elements of a sequence, then completion; a downstream `take` stops the loop.
    ///
    /// ```swift
    /// Observable.from([1, 2, 3]).take(1)   // 1, completed
    /// ```
    @inlinable
    public static func from<S: Sequence>(_ sequence: S) -> Observable<Element> where S.Element == Element {
        Observable { observer in
            let sink = LoopSink<Element>(downstream: observer)
            let item = TrampolineItem {
                var iterator = sequence.makeIterator()
                while !sink.isDisposed, let element = iterator.next() {
                    sink.downstream.on(.next(element))
                }
                if !sink.isDisposed { sink.forwardTerminal(.completed) }
            }
            sink.upstream.set(item)
            CurrentThreadScheduler.enqueueOrRun(item)
            return sink
        }
    }
}

/// Holds a synchronous loop's subscription; `isDisposed` stops the loop.
// @unchecked: `disposed` is atomic; the rest is immutable.
@usableFromInline
final class LoopSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .relaxed) }

    @usableFromInline
    override func dispose() {
        disposed.store(true, ordering: .relaxed)
        super.dispose()
    }
}

extension Observable where Element: Sendable {
    /// The given elements, then completion, each sent from its own action on `scheduler`.
    ///
    /// ```swift
    /// Observable.of(1, 2, scheduler: scheduler)   // 1, 2, completed: three actions
    /// ```
    public static func of(_ elements: Element..., scheduler: any SchedulerType) -> Observable<Element> {
        from(elements, scheduler: scheduler)
    }

    /// The elements of a sequence, then completion, each sent from its own action on
    /// `scheduler`; the sequence is iterated anew on each subscription.
    public static func from<S: Sequence & Sendable>(_ sequence: S, scheduler: any SchedulerType) -> Observable<Element>
        where S.Element == Element {
        scheduledLoop(on: scheduler, initialState: { SequenceCursor(sequence) }) { cursor in
            cursor.next().map { .next($0) } ?? .completed
        }
    }

    /// The element if there is one, then completion.
    ///
    /// ```swift
    /// Observable.from(optional: cachedValue)
    /// ```
    public static func from(optional: Element?) -> Observable<Element> {
        guard let element = optional else { return .empty() }
        return .just(element)
    }

    /// The element if there is one, then completion, each sent from its own action on `scheduler`.
    public static func from(optional: Element?, scheduler: any SchedulerType) -> Observable<Element> {
        guard let element = optional else { return .empty(scheduler: scheduler) }
        return .just(element, scheduler: scheduler)
    }
}

/// A sequence's iterator, made at the first step (on the scheduler, where the steps run).
struct SequenceCursor<Base: Sequence & Sendable> {
    private let base: Base
    private var iterator: Base.Iterator?

    init(_ base: Base) {
        self.base = base
    }

    mutating func next() -> Base.Element? {
        if iterator == nil { iterator = base.makeIterator() }
        return iterator?.next()
    }
}
