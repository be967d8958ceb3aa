import Synchronization

/// The per-subscription state of an operator: the downstream observer and the upstream subscription.
///
/// Subclasses add their own state. Events reach a sink serialized (the Rx grammar), so state
/// touched only from `on(_:)` needs no lock; state touched from timers or `dispose()` does.
/// Debug builds check that rule where events enter a sink (`lift`, `create`) and report a breach.
/// It and the hot operators' sinks are `@usableFromInline` with `@inlinable` event paths, so a
/// client module specializes them for its element types instead of running generic code.
// @unchecked: `downstream` and `upstream` are immutable or locked; subclasses document their own state.
@usableFromInline
class Sink<Output>: Disposable, UpstreamEndListener, @unchecked Sendable {
    @usableFromInline final let downstream: AnyObserver<Output>
    @usableFromInline final let upstream = DisposableSlot()
    /// Set once a terminal event went downstream; touched only on the serialized event path
    /// (or under the sink's own lock). Every access is a single read or write that spans no
    /// call, so no two can overlap and the dynamic exclusivity check is skipped.
    @usableFromInline @exclusivity(unchecked) final var isStopped = false
    /// Set by `dispose()`, from any thread: nothing goes downstream after it, as RxSwift's
    /// `Sink.forwardOn` checks its disposed flag (an observer that disposes its subscription
    /// while handling an element gets no completion after it).
    @usableFromInline final let disposedFlag = Atomic<Bool>(false)
    #if DEBUG
    /// Reports events that overlap in this sink (debug builds only; see `SynchronizationTracker`).
    @usableFromInline final let synchronizationTracker = SynchronizationTracker()
    #endif

    @inlinable
    init(downstream: AnyObserver<Output>) {
        self.downstream = downstream
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Whether `dispose()` ran.
    @inlinable
    final var wasDisposed: Bool { disposedFlag.load(ordering: .relaxed) }

    /// Delivers a terminal event downstream, unless the sink was disposed, then releases the
    /// upstream at once.
    @inlinable
    final func forwardTerminal(_ event: Event<Output>) {
        if !wasDisposed { downstream.on(event) }
        dispose()
    }

    /// Sends a terminal event once: later events, and terminal events after it, are dropped.
    @inlinable
    final func stop(with event: Event<Output>) {
        guard !isStopped else { return }
        isStopped = true
        forwardTerminal(event)
    }

    /// Forwards `.next` unless stopped or disposed.
    @inlinable
    final func forwardNext(_ element: Output) {
        if !isStopped && !wasDisposed { downstream.on(.next(element)) }
    }

    /// Passes on an event of a sequence this sink switched to (a `catch` handler's, a `timeout`
    /// fallback): elements unless stopped or disposed, the terminal event once.
    @inlinable
    final func forwardSwitched(_ event: Event<Output>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error, .completed: stop(with: event)
        }
    }

    /// Stops the upstream subscription and anything the subclass holds.
    @usableFromInline
    func dispose() {
        disposedFlag.store(true, ordering: .relaxed)
        upstream.dispose()
    }

    /// Its upstream will send nothing again (see `ChainLink`): most sinks keep what they hold,
    /// as a timer or another source may still drive them; `UpstreamEndingSink` lets go.
    @usableFromInline
    func upstreamEnded() {}

    /// Most sinks have no listener to tell (see `ChainLink`); `UpstreamEndingSink` has. Declared
    /// here so that a subclass's override is the `Disposable` witness.
    @usableFromInline
    func _notifyWhenUpstreamEnds(_ listener: AnyObject) {}
}
