#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The per-thread queue of `CurrentThreadScheduler`: work scheduled while it runs waits its turn,
/// so recursion becomes iteration and nested subscriptions finish wiring before sources emit.
@usableFromInline
final class Trampoline {
    private var items: [TrampolineItem] = []
    private var head = 0

    @usableFromInline init() {}

    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The trampoline running on this thread, if any.
    @inlinable
    static var current: Trampoline? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with a trampoline installed, then drains what it scheduled.
    @inlinable
    static func run<Result>(_ body: () -> Result) -> Result {
        let trampoline = Trampoline()
        let unmanaged = Unmanaged.passRetained(trampoline)
        pthread_setspecific(key, unmanaged.toOpaque())
        defer {
            pthread_setspecific(key, nil)
            unmanaged.release()
        }
        let result = body()
        trampoline.drain()
        return result
    }

    @usableFromInline
    func enqueue(_ item: TrampolineItem) {
        items.append(item)
    }

    @usableFromInline
    func drain() {
        while head < items.count {
            let item = items[head]
            head += 1
            if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            item.run()
        }
        items.removeAll()
        head = 0
    }
}

/// One unit of trampolined work, skipped when disposed before it runs.
// @unchecked: `action` is run and released only on the thread that owns the trampoline;
// other threads only flip the atomic `disposed` flag.
@usableFromInline
final class TrampolineItem: Cancelable, @unchecked Sendable {
    private var action: (() -> Void)?
    private let disposed = Atomic<Bool>(false)

    @usableFromInline
    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    @usableFromInline
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @usableFromInline
    func run() {
        let action = self.action
        self.action = nil
        if !isDisposed { action?() }
    }

    @usableFromInline
    func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
