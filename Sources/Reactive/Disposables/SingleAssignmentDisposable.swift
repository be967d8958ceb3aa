import Locking
import Synchronization

/// Holds a disposable that is set once, possibly after `dispose()` was called.
///
/// ```swift
/// let subscription = SingleAssignmentDisposable()
/// subscription.setDisposable(source.subscribe(observer))
/// ```
public final class SingleAssignmentDisposable: Cancelable {
    private let slot = DisposableSlot()

    /// A holder to set once; disposing it before the set disposes the value when it arrives.
    public init() {}

    /// Whether it has been disposed.
    public var isDisposed: Bool { slot.isDisposed }

    /// Stores `disposable`, or disposes it at once when this holder is disposed already. It is
    /// set once: a second disposable is disposed at once and the first one kept, so nothing is
    /// left running without an owner.
    public func setDisposable(_ disposable: any Disposable) {
        slot.set(disposable)
    }

    /// Disposes the stored disposable, now or when it is set.
    public func dispose() {
        slot.dispose()
    }
}

/// The state machine of a set-once disposable, embeddable in a sink without another object.
@usableFromInline
struct DisposableSlot: ~Copyable, Sendable {
    @usableFromInline let state = Lock(DisposableSlotState.empty)

    @inlinable
    init() {}

    @inlinable
    var isDisposed: Bool {
        state.withLock { if case .disposed = $0 { return true } else { return false } }
    }

    @inlinable
    func set(_ disposable: any Disposable) {
        let disposeNow: Bool = state.withLock { state in
            switch state {
            case .disposed, .holding: return true
            case .empty:
                state = .holding(disposable)
                return false
            }
        }
        if disposeNow { disposable.dispose() }
    }

    /// Moves the state out whole and disposes what it held: no `Optional<any Disposable>` in
    /// between, whose destruction goes through the optional's generic value witnesses (about 60
    /// instructions per call, and sinks dispose their slots more than once).
    @inlinable
    func dispose() {
        let held: DisposableSlotState = state.withLock { state in
            let old = consume state
            state = .disposed
            return old
        }
        switch consume held {
        case .holding(let disposable): disposable.dispose()
        case .empty, .disposed: break
        }
    }
}

/// What a `DisposableSlot` holds.
@usableFromInline
enum DisposableSlotState: Sendable {
    case empty
    case holding(any Disposable)
    case disposed
}
