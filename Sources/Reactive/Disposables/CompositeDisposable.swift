import Locking
import Synchronization

/// A group of disposables disposed together; one added after disposal is disposed at once.
///
/// ```swift
/// let group = CompositeDisposable()
/// let key = group.insert(timer)
/// group.remove(for: key)   // disposes `timer` only
/// ```
public final class CompositeDisposable: Cancelable {
    /// Identifies a disposable inside the group, for `remove(for:)`.
    public struct DisposeKey: Hashable, Sendable {
        let value: Int
    }

    private struct State {
        var disposables: [Int: any Disposable] = [:]
        var nextKey = 0
        var isDisposed = false
    }

    private let state = Lock(State())

    /// A group to add disposables to; disposing it disposes each, and later additions at once.
    public init() {}

    /// A group holding `disposables`.
    public init(disposables: [any Disposable]) {
        state.withLock { state in
            for disposable in disposables {
                state.disposables[state.nextKey] = disposable
                state.nextKey += 1
            }
        }
    }

    /// A group holding the given disposables.
    public convenience init(_ disposables: any Disposable...) {
        self.init(disposables: disposables)
    }

    /// Whether the group has been disposed.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// The number of disposables held.
    public var count: Int { state.withLock { $0.disposables.count } }

    /// Adds a disposable; returns `nil` (and disposes it) when the group is disposed already.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> DisposeKey? {
        let key: Int? = state.withLock { state in
            guard !state.isDisposed else { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.disposables[key] = disposable
            return key
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(value: key)
    }

    /// Removes and disposes the disposable stored under `key`.
    public func remove(for key: DisposeKey) {
        let removed = state.withLock { $0.disposables.removeValue(forKey: key.value) }
        removed?.dispose()
    }

    /// Disposes every member; later inserts are disposed at once.
    public func dispose() {
        let members: [any Disposable] = state.withLock { state in
            guard !state.isDisposed else { return [] }
            state.isDisposed = true
            let members = state.disposables.sorted { $0.key < $1.key }.map(\.value)
            state.disposables = [:]
            return members
        }
        for member in members { member.dispose() }
    }
}
