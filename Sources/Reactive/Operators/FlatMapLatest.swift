import Foundation

extension ObservableType {
    /// Maps each element to a sequence and follows only the newest one: a new element
    /// disposes the previous inner sequence.
    ///
    /// ```swift
    /// searchText.flatMapLatest { text in api.search(text) }
    /// ```
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = SwitchSink<Element, Source.Element>(
                downstream: observer, selector: { try selector($0).asObservable() }
            )
            sink.upstream.set(source.subscribe(handler: { sink.onOuter($0) }))
            return sink
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Follows only the newest inner sequence.
    public func switchLatest() -> Observable<Element.Element> {
        flatMapLatest { $0 }
    }
}

// @unchecked: every mutable field is guarded by the recursive `lock`, also held while forwarding.
final class SwitchSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    private let selector: @Sendable (Source) throws -> Observable<Result>
    private let lock = NSRecursiveLock()
    private let inner = SerialDisposable()
    private var latest = 0
    private var hasInner = false
    private var outerCompleted = false

    init(downstream: AnyObserver<Result>, selector: @escaping @Sendable (Source) throws -> Observable<Result>) {
        self.selector = selector
        super.init(downstream: downstream)
    }

    /// State changes happen under the lock; the new inner sequence is subscribed outside it.
    func onOuter(_ event: Event<Source>) {
        let start: (Observable<Result>, SingleAssignmentDisposable, Int)? = lock.withLock {
            guard !isStopped else { return nil }
            switch event {
            case .next(let element):
                let next: Observable<Result>
                do {
                    next = try selector(element)
                } catch {
                    stop(with: .error(error))
                    return nil
                }
                latest += 1
                hasInner = true
                let subscription = SingleAssignmentDisposable()
                inner.disposable = subscription
                return (next, subscription, latest)
            case .error(let error):
                stop(with: .error(error))
            case .completed:
                outerCompleted = true
                upstream.dispose()
                if !hasInner { stop(with: .completed) }
            }
            return nil
        }
        guard let (next, subscription, id) = start else { return }
        subscription.setDisposable(next.subscribe(handler: { self.onInner($0, id: id) }))
    }

    private func onInner(_ event: Event<Result>, id: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped, id == latest else { return }
        switch event {
        case .next(let element): downstream.on(.next(element))
        case .error(let error): stop(with: .error(error))
        case .completed:
            hasInner = false
            if outerCompleted { stop(with: .completed) }
        }
    }

    override func dispose() {
        super.dispose()
        inner.dispose()
    }
}
