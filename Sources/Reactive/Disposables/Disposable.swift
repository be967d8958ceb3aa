/// A resource to release: a subscription, a timer, a task.
///
/// `dispose()` is idempotent and safe to call from any thread.
public protocol Disposable: Sendable {
    /// Releases the resource; later calls do nothing.
    func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has run.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Adds this disposable to `bag`, which disposes it when the bag goes away.
    ///
    /// ```swift
    /// observable.subscribe(onNext: { print($0) }).disposed(by: bag)
    /// ```
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
