import Foundation
import Synchronization

/// The machinery shared by the subjects: the observer registry, a replay buffer, and serialized
/// delivery (emitters on several threads take turns; an observer may emit reentrantly: its
/// event is delivered to everyone after the current one, so all observers see one order).
///
/// Guarantee: once `dispose()` of a subscription returns, nothing emitted afterwards reaches it;
/// an event whose delivery was already under way on another thread may still arrive.
// @unchecked: `unsafeState` is guarded by the Mutex `lock`; `removeObserver` is immutable; delivery, `pending` and `isDelivering` by the recursive `delivery` lock.
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var observers: [Int: SubjectSubscription<Element>] = [:]
        @usableFromInline var snapshot: ContiguousArray<SubjectSubscription<Element>>?
        @usableFromInline var nextID = 0
        @usableFromInline var buffer: [Element] = []
        @usableFromInline var stopEvent: Event<Element>?

        @inlinable
        init(buffer: [Element]) {
            self.buffer = buffer
        }
    }

    /// How many elements a new subscriber gets first (0 for `PublishSubject`).
    @usableFromInline let bufferSize: Int
    /// Whether a subscriber arriving after the terminal event still gets the buffer.
    @usableFromInline let replaysAfterStop: Bool
    @usableFromInline let lock = SanitizerAwareMutex(())
    @usableFromInline var unsafeState: State
    @usableFromInline let delivery = NSRecursiveLock()
    /// Events sent reentrantly during a delivery, with their targets, delivered after it.
    @usableFromInline var pending: [(Event<Element>, ContiguousArray<SubjectSubscription<Element>>)] = []
    @usableFromInline var isDelivering = false
    /// `remove(id:)` as compiled where this core was made. A subscription's `dispose()` runs
    /// through the unspecialized `Disposable` witness; calling this gets back to code
    /// specialized for `Element` instead of generic dictionary code.
    @usableFromInline let removeObserver: @Sendable (SubjectCore<Element>, Int) -> Void

    @inlinable
    init(bufferSize: Int, replaysAfterStop: Bool, initial: [Element] = []) {
        self.bufferSize = bufferSize
        self.replaysAfterStop = replaysAfterStop
        self.unsafeState = State(buffer: initial)
        self.removeObserver = { core, id in core.remove(id: id) }
    }

    @inlinable
    var hasObservers: Bool { withState { !$0.observers.isEmpty } }
    var isStopped: Bool { withState { $0.stopEvent != nil } }
    var stopEvent: Event<Element>? { withState { $0.stopEvent } }
    var lastElement: Element? { withState { $0.buffer.last } }

    @inlinable
    func on(_ event: Event<Element>) {
        delivery.lock()
        defer { delivery.unlock() }
        let targets: ContiguousArray<SubjectSubscription<Element>>? = withState { state in
            guard state.stopEvent == nil else { return nil }
            switch event {
            case .next(let element):
                if bufferSize > 0 {
                    state.buffer.append(element)
                    if state.buffer.count > bufferSize { state.buffer.removeFirst(state.buffer.count - bufferSize) }
                }
                if let snapshot = state.snapshot { return snapshot }
                let snapshot = ContiguousArray(state.observers.sorted { $0.key < $1.key }.map(\.value))
                state.snapshot = snapshot
                return snapshot
            case .error, .completed:
                state.stopEvent = event
                let all = ContiguousArray(state.observers.sorted { $0.key < $1.key }.map(\.value))
                state.observers = [:]
                state.snapshot = nil
                return all
            }
        }
        guard let targets else { return }
        if isDelivering {
            pending.append((event, targets))
            return
        }
        deliverInTurn {
            for subscription in targets {
                subscription.deliver(event)
            }
        }
    }

    /// Runs `body` as the outermost delivery, then delivers what was sent reentrantly meanwhile.
    /// Call with `delivery` held and `isDelivering` false.
    @inlinable
    func deliverInTurn(_ body: () -> Void) {
        isDelivering = true
        body()
        var index = 0
        while index < pending.count {
            let (event, targets) = pending[index]
            index += 1
            for subscription in targets {
                subscription.deliver(event)
            }
        }
        pending.removeAll()
        isDelivering = false
    }

    /// Adds an observer. A subject without a replay buffer only registers it, under the state
    /// lock, so subscribing never waits for a delivery under way on another thread (which could
    /// be waiting, in turn, for a lock the subscribing thread holds). One with a buffer replays
    /// it in turn with deliveries, so that nothing is missed or repeated.
    @inlinable
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        var replay: [Element] = []
        var stop: Event<Element>?
        guard bufferSize > 0 else {
            let subscription = register(observer, replay: &replay, stop: &stop)
            if let stop { observer.on(stop) }
            return subscription ?? Disposables.create()
        }
        delivery.lock()
        defer { delivery.unlock() }
        let subscription = register(observer, replay: &replay, stop: &stop)
        if let subscription, replay.isEmpty { return subscription }
        let replayAndStop = {
            for element in replay {
                if subscription?.isDisposed == true { break }
                observer.on(.next(element))
            }
            if let stop { observer.on(stop) }
        }
        if isDelivering {
            replayAndStop()
        } else if !replay.isEmpty || stop != nil {
            deliverInTurn(replayAndStop)
        }
        return subscription ?? Disposables.create()
    }

    /// Registers `observer`; after the terminal event, fills in what a late subscriber gets instead.
    @inlinable
    func register(
        _ observer: AnyObserver<Element>, replay: inout [Element], stop: inout Event<Element>?
    ) -> SubjectSubscription<Element>? {
        withState { state in
            if let stopEvent = state.stopEvent {
                if replaysAfterStop { replay = state.buffer }
                stop = stopEvent
                return nil
            }
            let id = state.nextID
            state.nextID += 1
            let subscription = SubjectSubscription(id: id, observer: observer, core: self)
            state.observers[id] = subscription
            state.snapshot = nil
            replay = state.buffer
            return subscription
        }
    }

    /// Runs `body` with the state, under the lock.
    @inlinable
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { _ in body(&unsafeState) }
    }

    @inlinable
    func remove(id: Int) {
        lock.withLock { _ in
            if unsafeState.observers.removeValue(forKey: id) != nil { unsafeState.snapshot = nil }
        }
    }
}

/// One observer of a subject, and the disposable that removes it.
// @unchecked: `disposed` is atomic; `observer` and `core` are immutable.
@usableFromInline
final class SubjectSubscription<Element>: Disposable, @unchecked Sendable {
    @usableFromInline let id: Int
    @usableFromInline let observer: AnyObserver<Element>
    @usableFromInline let core: SubjectCore<Element>
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    init(id: Int, observer: AnyObserver<Element>, core: SubjectCore<Element>) {
        self.id = id
        self.observer = observer
        self.core = core
        Resources.increment()
    }

    deinit { Resources.decrement() }

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @inlinable
    func deliver(_ event: Event<Element>) {
        if !disposed.load(ordering: .acquiring) { observer.on(event) }
    }

    @inlinable
    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.removeObserver(core, id)
    }
}
