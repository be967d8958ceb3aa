import Foundation

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the inner sequences' elements as they come; completes when the outer sequence and
    /// every inner one have completed.
    public func merge() -> Observable<Element.Element> {
        flatMap { $0 }
    }

    /// Merges the inner sequences, running at most `maxConcurrent` at once; the others wait
    /// their turn, in order.
    ///
    /// ```swift
    /// downloads.merge(maxConcurrent: 4)
    /// ```
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        merging(maxConcurrent: maxConcurrent, whenBusy: .wait) { $0.asObservable() }
    }
}

extension ObservableType {
    /// Merges the elements of `sources` as they come; completes when all complete.
    ///
    /// ```swift
    /// Observable.merge(clicks, keys)
    /// ```
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }

    /// Merges the elements of `sources` as they come; completes when all complete.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable<Observable<Element>>.from(sources).merge()
    }

    /// Merges the elements of a collection of sequences as they come; completes when all complete.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Observable<Element>
        where Sources.Element == Observable<Element> {
        merge(Array(sources))
    }

    /// This sequence's elements merged with `other`'s.
    public func merge<Source: ObservableConvertibleType>(with other: Source) -> Observable<Element>
        where Source.Element == Element {
        Observable.merge([asObservable(), other.asObservable()])
    }
}

/// Runs up to `maxConcurrent` inner sequences; the rest wait in order, or are dropped.
///
/// State changes under `state`'s lock; inner sequences are subscribed, completed ones disposed,
/// and events delivered outside it (through the `Outbox`), so an inner sequence whose disposal
/// waits for another thread emitting into the merge cannot deadlock against it.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out; the rest is immutable.
@usableFromInline
final class MergeSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    /// What happens to an inner sequence that arrives while `maxConcurrent` are running.
    @usableFromInline enum WhenBusy { case wait, drop }

    @usableFromInline struct State {
        @usableFromInline var outbox = Outbox<Result>()
        @usableFromInline var waiting: [Observable<Result>] = []
        @usableFromInline var active = 0
        @usableFromInline var outerCompleted = false
        @usableFromInline var stopped = false

        @inlinable init() {}
    }

    @usableFromInline let maxConcurrent: Int
    @usableFromInline let whenBusy: WhenBusy
    @usableFromInline let selector: @Sendable (Source) throws -> Observable<Result>
    @usableFromInline let state = LockedState(State())
    @usableFromInline let inners = CompositeDisposable()

    @inlinable
    init(
        downstream: AnyObserver<Result>, maxConcurrent: Int, whenBusy: WhenBusy,
        selector: @escaping @Sendable (Source) throws -> Observable<Result>
    ) {
        self.maxConcurrent = maxConcurrent
        self.whenBusy = whenBusy
        self.selector = selector
        super.init(downstream: downstream)
    }

    @inlinable
    func run(_ source: Observable<Source>) {
        upstream.set(source.subscribe(handler: { self.onOuter($0) }))
    }

    @inlinable func onOuter(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            if whenBusy == .drop && state.withLock({ $0.active >= maxConcurrent }) { return }
            let inner: Observable<Result>
            do {
                inner = try selector(element)
            } catch {
                fail(error)
                return
            }
            let start = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                if state.active < maxConcurrent {
                    state.active += 1
                    return true
                }
                if whenBusy == .wait { state.waiting.append(inner) }
                return false
            }
            if start { subscribe(inner) }
        case .error(let error):
            fail(error)
        case .completed:
            let event = state.withLock { state -> Event<Result>? in
                guard !state.stopped else { return nil }
                state.outerCompleted = true
                guard state.active == 0 && state.waiting.isEmpty else { return nil }
                state.stopped = true
                return state.outbox.push(.completed)
            }
            upstream.dispose()
            deliver(event)
        }
    }

    /// Subscribes an inner sequence already counted in `active`.
    @inlinable func subscribe(_ inner: Observable<Result>) {
        let subscription = SingleAssignmentDisposable()
        guard let key = inners.insert(subscription) else { return }
        subscription.setDisposable(inner.subscribe(handler: { self.onInner($0, key: key) }))
    }

    @inlinable func onInner(_ event: Event<Result>, key: CompositeDisposable.DisposeKey) {
        switch event {
        case .next:
            let first = state.withLock { state in state.stopped ? nil : state.outbox.push(event) }
            deliver(first)
        case .error(let error):
            fail(error)
        case .completed:
            let (next, first) = state.withLock { state -> (Observable<Result>?, Event<Result>?) in
                guard !state.stopped else { return (nil, nil) }
                if !state.waiting.isEmpty { return (state.waiting.removeFirst(), nil) }
                state.active -= 1
                guard state.outerCompleted && state.active == 0 else { return (nil, nil) }
                state.stopped = true
                return (nil, state.outbox.push(.completed))
            }
            inners.remove(for: key)
            if let next { subscribe(next) }
            deliver(first)
        }
    }

    @inlinable func fail(_ error: any Error) {
        let first = state.withLock { state -> Event<Result>? in
            guard !state.stopped else { return nil }
            state.stopped = true
            state.waiting.removeAll()
            return state.outbox.push(.error(error))
        }
        deliver(first)
    }

    @inlinable func deliver(_ first: Event<Result>?) {
        deliver(first) { state.withLock { $0.outbox.pop() } }
    }

    @usableFromInline
    override func dispose() {
        state.withLock { state in
            state.stopped = true
            state.outbox.close()
        }
        super.dispose()
        inners.dispose()
    }
}
