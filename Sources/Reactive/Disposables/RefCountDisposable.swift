import Locking
/// Disposes `underlying` once its primary holder and every reference taken with `retain()`
/// have been disposed: `groupBy` and `window` keep their source running while a group or
/// window is still subscribed, after the outer subscription went away (RxSwift's rule).
///
/// ```swift
/// let shared = RefCountDisposable(disposable: connection)
/// let lease = shared.retain()
/// shared.dispose()   // connection stays
/// lease.dispose()    // now it is disposed
/// ```
public final class RefCountDisposable: Cancelable {
    private struct State {
        var references = 0
        var primaryDisposed = false
        var disposed = false
    }

    private let state = Lock(State())
    private let underlying: any Disposable

    init(_ underlying: any Disposable) {
        self.underlying = underlying
    }

    /// Holds `disposable` until the primary hold and every `retain()` are disposed.
    public convenience init(disposable: any Disposable) {
        self.init(disposable)
    }

    /// Whether `underlying` has been disposed.
    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// A reference that keeps `underlying` alive until it is disposed.
    public func retain() -> any Disposable {
        let taken = state.withLock { state in
            guard !state.disposed else { return false }
            state.references += 1
            return true
        }
        guard taken else { return Disposables.create() }
        return Disposables.create { self.release() }
    }

    /// Disposes the primary hold.
    public func dispose() {
        let disposeNow = state.withLock { state in
            guard !state.primaryDisposed else { return false }
            state.primaryDisposed = true
            return Self.settle(&state)
        }
        if disposeNow { underlying.dispose() }
    }

    private func release() {
        let disposeNow = state.withLock { state in
            state.references -= 1
            return Self.settle(&state)
        }
        if disposeNow { underlying.dispose() }
    }

    private static func settle(_ state: inout State) -> Bool {
        guard state.primaryDisposed, state.references == 0, !state.disposed else { return false }
        state.disposed = true
        return true
    }
}
