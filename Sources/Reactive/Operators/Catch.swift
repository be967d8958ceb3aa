extension ObservableType {
    /// On error, continues with the sequence `handler` returns for it (subscribed at the
    /// error's moment); a throwing handler ends the sequence with its error.
    ///
    /// ```swift
    /// request.catch { error in .just(fallback) }
    /// ```
    @inlinable
    public func `catch`<Source: ObservableConvertibleType>(
        _ handler: @escaping @Sendable (any Error) throws -> Source
    ) -> Observable<Element> where Source.Element == Element {
        return lift(with: handler) { CatchSink(downstream: $0, handler: $1) }
    }

    /// The same, for a handler returning an `Observable`, so a closure may build its fallback
    /// with leading-dot syntax as in RxSwift: `source.catch { _ in .just(0) }`.
    @inlinable
    public func `catch`(_ handler: @escaping @Sendable (any Error) throws -> Observable<Element>) -> Observable<Element> {
        lift(with: handler) { CatchSink(downstream: $0, handler: $1) }
    }

    /// On error, emits `element` and completes.
    @inlinable
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        let fallback = Observable.just(element)
        return self.catch { _ in fallback }
    }
}

// @unchecked: `isStopped` is on the serialized event path; `fallback` is a locked slot.
@usableFromInline
final class CatchSink<Element, Fallback: ObservableConvertibleType>: Sink<Element>, OperatorSink, @unchecked Sendable
    where Fallback.Element == Element {
    @usableFromInline let handler: @Sendable (any Error) throws -> Fallback
    /// The fallback's subscription: set at most once (the upstream is disposed before it), and
    /// a subscription set after `dispose()` is disposed at once.
    @usableFromInline let fallback = DisposableSlot()

    @inlinable
    init(downstream: AnyObserver<Element>, handler: @escaping @Sendable (any Error) throws -> Fallback) {
        self.handler = handler
        super.init(downstream: downstream)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .completed: stop(with: .completed)
        case .error(let error):
            guard !isStopped else { return }
            upstream.dispose()
            do {
                let next = try handler(error).asObservable()
                fallback.set(next.subscribe(handler: { self.forwardSwitched($0) }))
            } catch {
                stop(with: .error(error))
            }
        }
    }

    @usableFromInline
    override func dispose() {
        super.dispose()
        fallback.dispose()
    }
}
