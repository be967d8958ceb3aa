/// A resource to release: a subscription, a timer, a task.
///
/// `dispose()` is idempotent and safe to call from any thread.
public protocol Disposable: Sendable {
    /// Releases the resource; later calls do nothing.
    func dispose()

    /// For this package's operators: a subscription that is a link of a chain (a subject's
    /// subscription, a `map` or `filter` sink) tells `listener` when nothing can come from its
    /// upstream again, so that a chain dropped without `dispose()` is freed with its subject. The
    /// default does nothing; a disposable of your own needs no implementation. A requirement,
    /// not a cast, so that asking costs one call per subscription.
    @_documentation(visibility: internal)
    func _notifyWhenUpstreamEnds(_ listener: AnyObject)
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has run.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Does nothing: only the package's own chain links tell a listener anything.
    @_documentation(visibility: internal)
    @inlinable
    public func _notifyWhenUpstreamEnds(_ listener: AnyObject) {}

    /// Adds this disposable to `bag`, which disposes it when the bag goes away.
    ///
    /// ```swift
    /// observable.subscribe(onNext: { print($0) }).disposed(by: bag)
    /// ```
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
