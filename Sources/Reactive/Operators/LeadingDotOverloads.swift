/// Overloads taking a concrete `Observable` beside the generic forms, so an argument may be
/// written with leading-dot syntax as in RxSwift: `ifEmpty(switchTo: .just(1))`,
/// `concat(.of(2, 3))`. Calls with any other source still pick the generic form.
extension ObservableType {
    /// `ifEmpty(switchTo:)` for an `Observable` argument.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        lift { IfEmptySink(downstream: $0, fallback: other) }
    }

    /// `concat(_:)` for an `Observable` argument.
    public func concat(_ second: Observable<Element>) -> Observable<Element> {
        Observable.concat([asObservable(), second])
    }

    /// `amb(_:)` for an `Observable` argument.
    public func amb(_ right: Observable<Element>) -> Observable<Element> {
        Observable.amb([asObservable(), right])
    }

    /// `merge(with:)` for an `Observable` argument.
    public func merge(with other: Observable<Element>) -> Observable<Element> {
        Observable.merge([asObservable(), other])
    }
}

extension ObservableType where Element: Sendable {
    /// `timeout(_:other:scheduler:)` for an `Observable` fallback.
    public func timeout(_ dueTime: Duration, other: Observable<Element>, scheduler: any SchedulerType) -> Observable<Element> {
        genericTimeout(dueTime, other: other, scheduler: scheduler)
    }

    /// Reaches the generic form: inside, `Other` is not statically an `Observable`.
    private func genericTimeout<Other: ObservableConvertibleType>(
        _ dueTime: Duration, other: Other, scheduler: any SchedulerType
    ) -> Observable<Element> where Other.Element == Element {
        timeout(dueTime, other: other, scheduler: scheduler)
    }
}
