import Foundation
import Synchronization

/// The machinery shared by the subjects: the observer registry, a replay buffer, and serialized
/// delivery (emitters on several threads take turns; an observer may emit reentrantly: its
/// event is delivered to everyone after the current one, so all observers see one order).
///
/// Guarantee: once `dispose()` of a subscription returns, nothing emitted afterwards reaches it;
/// an event whose delivery was already under way on another thread may still arrive.
// @unchecked: `state` is guarded by the Mutex `lock`; delivery, `pending` and `isDelivering` by the recursive `delivery` lock.
final class SubjectCore<Element>: @unchecked Sendable {
    struct State {
        var observers: [Int: SubjectSubscription<Element>] = [:]
        var snapshot: ContiguousArray<SubjectSubscription<Element>>?
        var nextID = 0
        var buffer: [Element] = []
        var stopEvent: Event<Element>?
    }

    /// How many elements a new subscriber gets first (0 for `PublishSubject`).
    private let bufferSize: Int
    /// Whether a subscriber arriving after the terminal event still gets the buffer.
    private let replaysAfterStop: Bool
    private let lock = Mutex(())
    private var unsafeState: State
    private let delivery = NSRecursiveLock()
    /// Events sent reentrantly during a delivery, with their targets, delivered after it.
    private var pending: [(Event<Element>, ContiguousArray<SubjectSubscription<Element>>)] = []
    private var isDelivering = false

    init(bufferSize: Int, replaysAfterStop: Bool, initial: [Element] = []) {
        self.bufferSize = bufferSize
        self.replaysAfterStop = replaysAfterStop
        self.unsafeState = State(buffer: initial)
    }

    var hasObservers: Bool { withState { !$0.observers.isEmpty } }
    var isStopped: Bool { withState { $0.stopEvent != nil } }
    var stopEvent: Event<Element>? { withState { $0.stopEvent } }
    var lastElement: Element? { withState { $0.buffer.last } }

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
    private func deliverInTurn(_ body: () -> Void) {
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
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        guard bufferSize > 0 else {
            let (subscription, _, stop) = register(observer)
            if let stop { observer.on(stop) }
            return subscription ?? Disposables.create()
        }
        delivery.lock()
        defer { delivery.unlock() }
        let (subscription, replay, stop) = register(observer)
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

    /// Registers `observer`, or returns what a subscriber after the terminal event gets.
    private func register(
        _ observer: AnyObserver<Element>
    ) -> (SubjectSubscription<Element>?, [Element], Event<Element>?) {
        withState { state in
            if let stopEvent = state.stopEvent {
                return (nil, replaysAfterStop ? state.buffer : [], stopEvent)
            }
            let id = state.nextID
            state.nextID += 1
            let subscription = SubjectSubscription(id: id, observer: observer, core: self)
            state.observers[id] = subscription
            state.snapshot = nil
            return (subscription, state.buffer, nil)
        }
    }

    /// Runs `body` with the state, under the lock.
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { _ in body(&unsafeState) }
    }

    func remove(id: Int) {
        withState { state in
            if state.observers.removeValue(forKey: id) != nil { state.snapshot = nil }
        }
    }
}

/// One observer of a subject, and the disposable that removes it.
// @unchecked: `disposed` is atomic; `observer` and `core` are immutable.
final class SubjectSubscription<Element>: Disposable, @unchecked Sendable {
    let id: Int
    private let observer: AnyObserver<Element>
    private let core: SubjectCore<Element>
    private let disposed = Atomic<Bool>(false)

    init(id: Int, observer: AnyObserver<Element>, core: SubjectCore<Element>) {
        self.id = id
        self.observer = observer
        self.core = core
        Resources.increment()
    }

    deinit { Resources.decrement() }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func deliver(_ event: Event<Element>) {
        if !disposed.load(ordering: .acquiring) { observer.on(event) }
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.remove(id: id)
    }
}
