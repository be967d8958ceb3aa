/// Disposes a disposable that something else keeps alive, without keeping it alive itself.
///
/// `publish()` and `replay(_:)` hand it to a subscriber instead of the subject's subscription:
/// the subject holds the subscriber, so a subscriber holding its subscription strongly would
/// keep both alive after the connectable and its subject are gone (a subscriber that joined
/// when no connection would ever feed it again, see `Multicaster`'s `deinit`).
// @unchecked: `target` is a weak reference, which the runtime loads and clears atomically.
final class WeakDisposable: Disposable, @unchecked Sendable {
    private weak var target: AnyObject?

    /// `disposable` must be a class instance that its owner keeps alive while it matters (a
    /// subject's subscription, held by the subject's registry until it is removed).
    init(_ disposable: any Disposable) {
        target = disposable as AnyObject
    }

    func dispose() {
        (target as? any Disposable)?.dispose()
    }
}
