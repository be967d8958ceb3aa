import Foundation

extension ObservableType where Element: Sendable {
    /// Delivers on the main queue to `@MainActor` closures, so a main-actor view model can
    /// bind without `assumeIsolated`.
    ///
    /// ```swift
    /// feed.sections.subscribe(onMainActor: { self.render($0) })
    /// ```
    @discardableResult
    public func subscribe(
        onMainActor onNext: @escaping @MainActor @Sendable (Element) -> Void,
        onError: (@MainActor @Sendable (any Error) -> Void)? = nil,
        onCompleted: (@MainActor @Sendable () -> Void)? = nil
    ) -> any Disposable {
        observe(on: MainScheduler.instance).subscribe(
            onNext: { element in MainActor.assumeIsolated { onNext(element) } },
            onError: { error in MainActor.assumeIsolated { onError?(error) } },
            onCompleted: { MainActor.assumeIsolated { onCompleted?() } }
        )
    }
}

extension Single where Element: Sendable {
    /// Delivers the answer on the main queue to `@MainActor` closures.
    @discardableResult
    public func subscribe(
        onMainActor onSuccess: @escaping @MainActor @Sendable (Element) -> Void,
        onFailure: (@MainActor @Sendable (any Error) -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(onMainActor: onSuccess, onError: onFailure)
    }
}
