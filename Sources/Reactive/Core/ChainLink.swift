import Synchronization

/// How a chain of subscriptions (a subject's subscription, `map`/`compactMap`/`filter` sinks,
/// `subscribe`'s observer) hears, and passes on, that nothing will ever come from upstream again.
///
/// A subscriber holds its upstream subscription (to dispose it) and the upstream holds the
/// subscriber (to send it events): each pair of neighbours is a cycle that `dispose()` or a
/// terminal event breaks. When neither comes and the source itself is gone (a subject nobody
/// holds), the chain would keep itself alive forever. A subject's `deinit` therefore tells each
/// subscription's listener that its upstream ended; a listener that gets events from that upstream
/// alone passes the news on to its own listener and lets go of its upstream, which frees the whole
/// chain once its holders are gone. Nothing is called on the way: no `onDisposed`, no event, as
/// nothing was disposed or sent.
///
/// A link keeps its listener's address in an atomic word, unretained (the link's observer holds
/// the listener as long as it matters); the word's low bits, which an object's address leaves
/// free, are the link's own flags. A subscriber asks its upstream subscription to register it
/// through `Disposable._notifyWhenUpstreamEnds(_:)` (no cast); links share no base class, as a
/// subclass with a deinit and atomic storage of its own made Swift 6.3.1's optimizer crash when a
/// client module inlined that deinit.
@usableFromInline
enum ChainLink {
    /// The bits of a link's word that a listener's address leaves free (objects are 16-byte aligned).
    @usableFromInline static var flagBits: UInt { 0xF }

    /// Registers `listener` in `word`, whose address bits are still clear.
    @inlinable
    static func register(_ listener: AnyObject, in word: borrowing Atomic<UInt>) {
        word.bitwiseOr(UInt(bitPattern: Unmanaged.passUnretained(listener).toOpaque()), ordering: .releasing)
    }

    /// Tells the listener registered in `word`, once, that its upstream ended. Only called while
    /// the link's observer, which holds that listener, is still set.
    @usableFromInline
    static func endListener(in word: borrowing Atomic<UInt>) {
        let old = word.bitwiseAnd(flagBits, ordering: .acquiringAndReleasing).oldValue
        guard let address = UnsafeRawPointer(bitPattern: old & ~flagBits) else { return }
        (Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue() as? any UpstreamEndListener)?.upstreamEnded()
    }
}

/// A subscriber that can hear that its upstream will never send again (see `ChainLink`).
@usableFromInline
protocol UpstreamEndListener: AnyObject {
    /// Nothing will come from upstream again. A subscriber that gets events from nowhere else
    /// passes that on and lets go of its upstream subscription; others keep what they hold (a
    /// timer or another source may still drive them).
    func upstreamEnded()
}

/// A sink fed by its upstream alone (`map`, `compactMap`, `filter`): when that upstream ends it
/// tells its own listener, then lets go of the upstream subscription.
// @unchecked: `upstreamEnd` is atomic; the rest is `Sink`'s.
@usableFromInline
class UpstreamEndingSink<Output>: Sink<Output>, @unchecked Sendable {
    /// The listener's address (see `ChainLink`).
    @usableFromInline final let upstreamEnd = Atomic<UInt>(0)

    @usableFromInline
    override final func _notifyWhenUpstreamEnds(_ listener: AnyObject) {
        ChainLink.register(listener, in: upstreamEnd)
    }

    @usableFromInline
    override final func upstreamEnded() {
        ChainLink.endListener(in: upstreamEnd)
        upstream.dispose()
    }
}
