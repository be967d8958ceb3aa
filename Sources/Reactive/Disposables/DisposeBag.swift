import Locking
import Synchronization

/// Collects disposables and disposes them all when it is deinitialized.
///
/// ```swift
/// var bag = DisposeBag()
/// observable.subscribe(onNext: { print($0) }).disposed(by: bag)
/// bag = DisposeBag()   // disposes the subscription
/// ```
public final class DisposeBag: Sendable {
    private struct State {
        var disposables: [any Disposable] = []
        var isDisposed = false
    }

    private let state = Lock(State())

    /// A bag to add subscriptions to; they are disposed when the bag is released.
    public init() {}

    /// Adds a disposable; disposes it at once if the bag is already gone.
    public func insert(_ disposable: any Disposable) {
        let accepted = state.withLock { state in
            guard !state.isDisposed else { return false }
            state.disposables.append(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Adds several disposables.
    public func insert(_ disposables: any Disposable...) {
        for disposable in disposables { insert(disposable) }
    }

    /// Adds the disposables of an array.
    public func insert(_ disposables: [any Disposable]) {
        for disposable in disposables { insert(disposable) }
    }

    /// Adds the disposables listed in `builder`.
    ///
    /// ```swift
    /// bag.insert {
    ///     a.bind(to: b)
    ///     c.subscribe()
    /// }
    /// ```
    public func insert(@DisposableBuilder builder: () -> [any Disposable]) {
        insert(builder())
    }

    /// Disposes everything collected so far; the bag stays usable.
    public func disposeAll() {
        let taken = state.withLock { state in
            let taken = state.disposables
            state.disposables = []
            return taken
        }
        for disposable in taken { disposable.dispose() }
    }

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: any Disposable...) {
        self.init(disposing: disposables)
    }

    /// A bag holding the disposables of an array.
    public convenience init(disposing disposables: [any Disposable]) {
        self.init()
        insert(disposables)
    }

    /// A bag holding the disposables listed in `builder`.
    ///
    /// ```swift
    /// let bag = DisposeBag {
    ///     name.bind(to: nameRelay)
    ///     taps.subscribe(onNext: { print($0) })
    /// }
    /// ```
    public convenience init(@DisposableBuilder builder: () -> [any Disposable]) {
        self.init(disposing: builder())
    }

    /// Lists disposables, one per line, for `DisposeBag { ... }` and `insert { ... }`.
    @resultBuilder
    public enum DisposableBuilder {
        /// The listed disposables, in order.
        public static func buildBlock(_ disposables: any Disposable...) -> [any Disposable] {
            disposables
        }
    }

    deinit {
        let taken = state.withLock { state in
            state.isDisposed = true
            return state.disposables
        }
        for disposable in taken { disposable.dispose() }
    }
}
