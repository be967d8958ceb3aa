extension ObservableType {
    /// `retry(when:)` with the errors seen as `Failure` (RxSwift's form generic over the error
    /// type): the handler gets an `Observable<Failure>`; an error of another type is not
    /// retried, it reaches the handler's sequence as an error (and so fails the result, unless
    /// the handler catches it).
    ///
    /// ```swift
    /// request.retry { (errors: Observable<HTTPError>) in
    ///     errors.flatMap { $0.isTransient ? Observable.just(()) : .error($0) }
    /// }
    /// ```
    @_disfavoredOverload
    public func retry<Trigger: ObservableConvertibleType, Failure: Error>(
        when notificationHandler: @escaping @Sendable (Observable<Failure>) -> Trigger
    ) -> Observable<Element> {
        retry(when: { (errors: Observable<any Error>) -> Observable<Trigger.Element> in
            let typed = errors.map { error -> Failure in
                guard let failure = error as? Failure else { throw error }
                return failure
            }
            return notificationHandler(typed).asObservable()
        })
    }
}
