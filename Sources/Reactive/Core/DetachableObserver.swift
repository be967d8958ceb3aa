import Locking

/// Forwards events to an observer until `detach()`, which lets go of it.
///
/// An operator that ends without telling its downstream (RxSwift's `skip(until:)` when the source
/// completes first) detaches it, so the subscriber, which holds the operator's subscription, and
/// the operator, which holds the subscriber, stop holding each other.
final class DetachableObserver<Element>: Sendable {
    private let target: Lock<AnyObserver<Element>?>

    init(_ target: AnyObserver<Element>) {
        self.target = Lock(target)
    }

    /// Delivers `event` to the observer unless detached; no lock is held while it runs.
    func on(_ event: Event<Element>) {
        target.withLock { $0 }?.on(event)
    }

    /// Lets go of the observer; later events are dropped.
    func detach() {
        // Let go of after the lock: releasing the observer may run its owner's deinit.
        let released = target.withLock { target -> AnyObserver<Element>? in
            defer { target = nil }
            return target
        }
        withExtendedLifetime(released) {}
    }

    /// This relay as an observer.
    var observer: AnyObserver<Element> { AnyObserver { self.on($0) } }
}
