import Locking
import Synchronization

/// Factory for the common disposables.
public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> any Disposable { NopDisposable.instance }

    /// A disposable that runs `action` once, on the first `dispose()`.
    ///
    /// ```swift
    /// return Disposables.create { task.cancel() }
    /// ```
    public static func create(with action: @escaping @Sendable () -> Void) -> any Cancelable {
        AnonymousDisposable(action)
    }

    /// A disposable that disposes both.
    public static func create(_ first: any Disposable, _ second: any Disposable) -> any Cancelable {
        BinaryDisposable(first, second)
    }

    /// A disposable that disposes all of them.
    public static func create(_ disposables: any Disposable...) -> any Cancelable {
        CompositeDisposable(disposables: disposables)
    }

    /// A disposable that disposes all of them.
    public static func create(_ disposables: [any Disposable]) -> any Cancelable {
        CompositeDisposable(disposables: disposables)
    }
}

/// Does nothing on dispose.
struct NopDisposable: Disposable {
    static let instance = NopDisposable()
    func dispose() {}
}

/// Runs a closure once on dispose, then releases it.
final class AnonymousDisposable: Cancelable {
    private let action: Lock<(@Sendable () -> Void)?>
    private let disposed = Atomic<Bool>(false)

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Lock(action)
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = self.action.withLock { slot in
            let taken = slot
            slot = nil
            return taken
        }
        action?()
    }
}

/// Disposes two disposables once.
final class BinaryDisposable: Cancelable {
    private let pair: Lock<(any Disposable, any Disposable)?>

    init(_ first: any Disposable, _ second: any Disposable) {
        pair = Lock((first, second))
    }

    var isDisposed: Bool { pair.withLock { $0 == nil } }

    func dispose() {
        let taken = pair.withLock { slot in
            let taken = slot
            slot = nil
            return taken
        }
        taken?.0.dispose()
        taken?.1.dispose()
    }
}

/// Tells whether it was disposed; nothing more.
public final class BooleanDisposable: Cancelable {
    private let disposed: Atomic<Bool>

    /// A disposable, disposed already when `isDisposed` is true.
    public init(isDisposed: Bool = false) {
        disposed = Atomic(isDisposed)
    }

    /// Whether `dispose()` has run.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Marks it disposed.
    public func dispose() { disposed.store(true, ordering: .releasing) }
}
