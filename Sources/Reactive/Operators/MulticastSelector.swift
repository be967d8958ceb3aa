extension ObservableType {
    /// Shares one subscription of this sequence, through a subject made per subscription by
    /// `subjectSelector`, among the subscriptions inside `selector`'s result (RxSwift's
    /// `multicast(_:selector:)`): `selector` may subscribe to its argument several times while
    /// the source runs once. A throw from either closure fails the subscription.
    ///
    /// ```swift
    /// prices.multicast({ PublishSubject<Int>() }) { shared in Observable.zip(shared, shared.skip(1)) }
    /// ```
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping @Sendable () throws -> Subject,
        selector: @escaping @Sendable (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Observable { observer in
            do {
                let connectable = source.multicast(try subjectSelector())
                let subscription = try selector(connectable.asObservable()).subscribe(observer)
                return Disposables.create(subscription, connectable.connect())
            } catch {
                observer.on(.error(error))
                return Disposables.create()
            }
        }
    }
}
