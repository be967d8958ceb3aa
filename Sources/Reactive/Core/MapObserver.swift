extension ObserverType {
    /// An observer that transforms each element with `transform` before handing it to this one
    /// (RxSwift's `mapObserver`); a throw sends the error instead.
    ///
    /// ```swift
    /// let text: AnyObserver<Int> = label.mapObserver { "\($0)" }
    /// ```
    public func mapObserver<Result>(
        _ transform: @escaping @Sendable (Result) throws -> Element
    ) -> AnyObserver<Result> where Self: Sendable {
        AnyObserver { event in
            switch event {
            case .next(let element):
                do {
                    self.on(.next(try transform(element)))
                } catch {
                    self.on(.error(error))
                }
            case .error(let error): self.on(.error(error))
            case .completed: self.on(.completed)
            }
        }
    }
}
