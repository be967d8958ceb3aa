import Locking
import Synchronization

/// The per-thread queue of `CurrentThreadScheduler`: work scheduled while it runs waits its turn,
/// so recursion becomes iteration and nested subscriptions finish wiring before sources emit.
///
/// Each thread keeps one, made on first use and released when the thread exits; `isRunning`
/// tells whether a `run` is under way, so a top-level subscribe allocates nothing here.
/// Only its own thread ever touches it.
@usableFromInline
final class Trampoline {
    // Unchecked exclusivity: only the owning thread touches these, and no access spans a call
    // out (`drain` reads an item, then runs it), so accesses never overlap.
    @usableFromInline @exclusivity(unchecked) var items: [TrampolineItem] = []
    @usableFromInline @exclusivity(unchecked) var head = 0
    /// Whether `run` is under way on this thread.
    @usableFromInline @exclusivity(unchecked) var isRunning = false

    @usableFromInline init() {}

    /// Holds each thread's trampoline, released when the thread exits.
    @usableFromInline static let key = ThreadSpecificKey()

    /// The trampoline running on this thread, if any.
    @inlinable
    static var current: Trampoline? {
        guard let pointer = key.value else { return nil }
        let trampoline = Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
        return trampoline.isRunning ? trampoline : nil
    }

    /// This thread's trampoline, running or not; made and installed on first use.
    @usableFromInline
    static var ofThisThread: Trampoline {
        if let pointer = key.value {
            return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
        }
        let trampoline = Trampoline()
        key.set(Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }

    /// Runs `subscribe` (a producer making a subscription) at once when this thread's trampoline
    /// is running, else with it running, then drains what it scheduled. One thread-local lookup,
    /// and no retain: the thread's key holds the trampoline, and only this thread touches it.
    @usableFromInline
    static func subscribe(_ subscribe: () -> any Disposable) -> any Disposable {
        guard let pointer = key.value else { return ofThisThread.run(subscribe) }
        return Unmanaged<Trampoline>.fromOpaque(pointer)._withUnsafeGuaranteedRef { trampoline in
            trampoline.isRunning ? subscribe() : trampoline.run(subscribe)
        }
    }

    /// Runs `body` with this thread's trampoline running, then drains what it scheduled.
    /// Call only when `current` is `nil`.
    @inlinable
    static func run<Result>(_ body: () -> Result) -> Result {
        ofThisThread.run(body)
    }

    /// Runs `body` with this trampoline running, then drains what it scheduled. Call only on
    /// this trampoline's thread while it is not running.
    @inlinable
    func run<Result>(_ body: () -> Result) -> Result {
        isRunning = true
        let result = body()
        if head < items.count { drain() }
        isRunning = false
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
        items.removeAll(keepingCapacity: items.capacity <= 64)
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
