import Foundation

extension ObservableType {
    /// Maps each element to a sequence and merges their elements as they come.
    ///
    /// ```swift
    /// ids.flatMap { id in api.load(id) }
    /// ```
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        merging(maxConcurrent: Int.max) { try selector($0).asObservable() }
    }

    /// Maps each element to a sequence and runs those one after another, in order.
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        merging(maxConcurrent: 1) { try selector($0).asObservable() }
    }

    func merging<Result>(
        maxConcurrent: Int, _ selector: @escaping @Sendable (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        let source = asObservable()
        return Observable { observer in
            let sink = MergeSink(downstream: observer, maxConcurrent: maxConcurrent, selector: selector)
            sink.run(source)
            return sink
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the inner sequences' elements as they come.
    public func merge() -> Observable<Element.Element> {
        flatMap { $0 }
    }

    /// Subscribes the inner sequences one after another.
    public func concat() -> Observable<Element.Element> {
        concatMap { $0 }
    }
}

extension Observable {
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

    /// Subscribes `sources` one after another.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }

    /// Subscribes `sources` one after another.
    public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable<Observable<Element>>.from(sources).concat()
    }
}

extension ObservableType {
    /// This sequence, then `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
        where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }

    /// This sequence's elements merged with `other`'s.
    public func merge<Source: ObservableConvertibleType>(with other: Source) -> Observable<Element>
        where Source.Element == Element {
        Observable.merge([asObservable(), other.asObservable()])
    }
}

/// Runs up to `maxConcurrent` inner sequences; the rest wait in order.
// @unchecked: every mutable field is guarded by the recursive `lock`, also held while forwarding.
final class MergeSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    private let maxConcurrent: Int
    private let selector: @Sendable (Source) throws -> Observable<Result>
    private let lock = NSRecursiveLock()
    private let inners = CompositeDisposable()
    private var waiting: [Observable<Result>] = []
    private var active = 0
    private var outerCompleted = false

    init(
        downstream: AnyObserver<Result>, maxConcurrent: Int,
        selector: @escaping @Sendable (Source) throws -> Observable<Result>
    ) {
        self.maxConcurrent = maxConcurrent
        self.selector = selector
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Source>) {
        upstream.set(source.subscribe(handler: { self.onOuter($0) }))
    }

    /// State changes happen under the lock; inner sequences are subscribed outside it, so a
    /// source that delivers under a lock of its own cannot deadlock against this one.
    private func onOuter(_ event: Event<Source>) {
        let start: Observable<Result>? = lock.withLock {
            guard !isStopped else { return nil }
            switch event {
            case .next(let element):
                do {
                    let inner = try selector(element)
                    if active < maxConcurrent {
                        active += 1
                        return inner
                    }
                    waiting.append(inner)
                } catch {
                    stop(with: .error(error))
                }
            case .error(let error):
                stop(with: .error(error))
            case .completed:
                outerCompleted = true
                upstream.dispose()
                if active == 0 && waiting.isEmpty { stop(with: .completed) }
            }
            return nil
        }
        if let start { subscribe(start) }
    }

    /// Subscribes an inner sequence already counted in `active`; called without the lock.
    private func subscribe(_ inner: Observable<Result>) {
        let subscription = SingleAssignmentDisposable()
        guard let key = inners.insert(subscription) else { return }
        subscription.setDisposable(inner.subscribe(handler: { self.onInner($0, key: key) }))
    }

    private func onInner(_ event: Event<Result>, key: CompositeDisposable.DisposeKey) {
        let next: Observable<Result>? = lock.withLock {
            guard !isStopped else { return nil }
            switch event {
            case .next(let element):
                downstream.on(.next(element))
            case .error(let error):
                stop(with: .error(error))
            case .completed:
                inners.remove(for: key)
                if !waiting.isEmpty {
                    return waiting.removeFirst()
                }
                active -= 1
                if outerCompleted && active == 0 { stop(with: .completed) }
            }
            return nil
        }
        if let next { subscribe(next) }
    }

    override func dispose() {
        super.dispose()
        inners.dispose()
    }
}
