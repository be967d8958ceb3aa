/// A `SharedSequence` for events (RxCocoa's `Signal`): it never fails, delivers on the main
/// scheduler, and shares without replaying, so a new subscriber sees only later elements.
///
/// ```swift
/// let taps: Signal<Void> = button.taps.asSignal(onErrorSignalWith: .empty())
/// taps.emit(onNext: { save() }).disposed(by: bag)
/// ```
public typealias Signal<Element: Sendable> = SharedSequence<SignalSharingStrategy, Element>

/// `Signal`'s strategy: `SharingScheduler.make()`, and `share()` without replay while connected.
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// The sharing scheduler: the main scheduler unless mocked.
    public static var scheduler: any SchedulerType { SharingScheduler.make() }

    /// Shares among subscribers without replaying.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 0, scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// `self`, so `asSignal()` can be called on a value that already is one.
    public func asSignal() -> Signal<Element> { asSharedSequence() }
}

extension ObservableConvertibleType where Element: Sendable {
    /// This sequence as a `Signal`: delivered on the main scheduler; on failure it emits
    /// `onErrorJustReturn` and completes.
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a `Signal`: delivered on the main scheduler; on failure it continues
    /// with `onErrorSignalWith`.
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        let fallback = onErrorSignalWith.asObservable()
        return Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { _ in fallback })
    }

    /// This sequence as a `Signal`: delivered on the main scheduler; on failure it continues
    /// with the signal `onErrorRecover` returns for the error.
    public func asSignal(
        onErrorRecover: @escaping @Sendable (_ error: any Error) -> Signal<Element>
    ) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { onErrorRecover($0).asObservable() })
    }
}

extension PublishRelay where Element: Sendable {
    /// This relay as a `Signal` of every accepted element.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}
