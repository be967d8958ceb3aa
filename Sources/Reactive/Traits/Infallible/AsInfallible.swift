extension ObservableConvertibleType {
    /// This sequence as an `Infallible` that, on an error, emits `element` and completes.
    ///
    /// ```swift
    /// api.count().asInfallible(onErrorJustReturn: 0)
    /// ```
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// This sequence as an `Infallible` that, on an error, continues with `infallible`.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        let fallback = infallible.asObservable()
        return Infallible(asObservable().catch { _ in fallback })
    }

    /// This sequence as an `Infallible` that, on an error, continues with what `recover` returns
    /// for it.
    public func asInfallible(
        onErrorRecover recover: @escaping @Sendable (any Error) -> Infallible<Element>
    ) -> Infallible<Element> {
        Infallible(asObservable().catch { recover($0).asObservable() })
    }
}
