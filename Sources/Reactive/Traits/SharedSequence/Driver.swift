/// A `SharedSequence` for UI state (RxCocoa's `Driver`): it never fails, delivers on the main
/// scheduler, and replays its latest element to each new subscriber while connected.
///
/// ```swift
/// let title: Driver<String> = model.name.asDriver(onErrorJustReturn: "")
/// title.drive(onNext: { label.text = $0 }).disposed(by: bag)
/// ```
///
/// Subscribe from the main thread, so that the replayed element arrives there too.
public typealias Driver<Element: Sendable> = SharedSequence<DriverSharingStrategy, Element>

/// `Driver`'s strategy: `SharingScheduler.make()`, and `share(replay: 1)` while connected.
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// The sharing scheduler: the main scheduler unless mocked.
    public static var scheduler: any SchedulerType { SharingScheduler.make() }

    /// Replays the latest element to new subscribers while connected.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// `self`, so `asDriver()` can be called on a value that already is one.
    public func asDriver() -> Driver<Element> { asSharedSequence() }
}

extension ObservableConvertibleType where Element: Sendable {
    /// This sequence as a `Driver`: delivered on the main scheduler; on failure it emits
    /// `onErrorJustReturn` and completes.
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a `Driver`: delivered on the main scheduler; on failure it continues
    /// with `onErrorDriveWith`.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        let fallback = onErrorDriveWith.asObservable()
        return Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { _ in fallback })
    }

    /// This sequence as a `Driver`: delivered on the main scheduler; on failure it continues
    /// with the driver `onErrorRecover` returns for the error.
    public func asDriver(
        onErrorRecover: @escaping @Sendable (_ error: any Error) -> Driver<Element>
    ) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { onErrorRecover($0).asObservable() })
    }
}

extension BehaviorRelay where Element: Sendable {
    /// This relay as a `Driver`: its current value first, then every accepted one.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
