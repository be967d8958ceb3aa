import Locking
import Synchronization

/// Holds one disposable at a time: setting a new one disposes the previous one.
///
/// ```swift
/// let current = SerialDisposable()
/// current.disposable = first.subscribe()
/// current.disposable = second.subscribe()   // disposes the first
/// ```
public final class SerialDisposable: Cancelable {
    private struct State {
        var current: (any Disposable)?
        var isDisposed = false
    }

    private let state = Lock(State())

    /// A holder of one replaceable disposable: setting a new one disposes the old.
    public init() {}

    /// Whether it has been disposed.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// The current disposable; assigning disposes the previous one, or the new one when disposed.
    public var disposable: any Disposable {
        get { state.withLock { $0.current } ?? Disposables.create() }
        set {
            let previous: (any Disposable)? = state.withLock { state in
                guard !state.isDisposed else { return newValue }
                let previous = state.current
                state.current = newValue
                return previous
            }
            previous?.dispose()
        }
    }

    /// Disposes the current disposable and every later one.
    public func dispose() {
        let current: (any Disposable)? = state.withLock { state in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            let current = state.current
            state.current = nil
            return current
        }
        current?.dispose()
    }
}
