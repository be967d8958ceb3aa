import Locking
import Synchronization

/// The machinery shared by the subjects: the observer registry, a replay buffer, and serialized
/// delivery that holds no lock while observer code runs.
///
/// Delivery: emitters on several threads take turns through a queue. The thread that finds no
/// delivery under way delivers its event, then every event queued meanwhile (by other threads,
/// or reentrantly by an observer), so all observers see one order and no emitter ever waits for
/// another one's observers: it queues its event and returns. Each event's targets are fixed when
/// it is sent, together with the replay buffer, so a new subscriber gets exactly the buffer, then
/// every later event.
///
/// Replay: a new subscriber gets the buffer on the subscribing thread, outside any lock, while
/// other observers keep receiving. Events meant for it meanwhile are held and delivered after
/// its replay, by the subscribing thread, so its own events stay serialized and gap-free.
///
/// Guarantee: once `dispose()` of a subscription returns, nothing emitted afterwards reaches it;
/// an event whose delivery was already under way on another thread may still arrive.
// @unchecked: `unsafeState` is guarded by the Lock `lock`; everything else is immutable.
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
    @usableFromInline typealias Targets = ContiguousArray<SubjectSubscription<Element>>

    @usableFromInline
    struct State {
        @usableFromInline var observers = SubjectRegistry<Element>()
        @usableFromInline var snapshot: Targets?
        @usableFromInline var nextID = 0
        @usableFromInline var buffer: [Element] = []
        @usableFromInline var stopEvent: Event<Element>?
        /// Whether a thread is delivering; others queue their events for it.
        @usableFromInline var isDelivering = false
        /// Events waiting for their turn, with their targets; `queue[..<queueHead]` are done.
        @usableFromInline var queue: [(Event<Element>, Targets)] = []
        @usableFromInline var queueHead = 0
        /// Events held for subscribers whose replay is still under way, by subscription id.
        @usableFromInline var held: [Int: [Event<Element>]] = [:]
        /// The subject is gone (`subjectReleased()`): nothing can send to this core again.
        @usableFromInline var subjectIsGone = false

        @inlinable
        init(buffer: [Element]) {
            self.buffer = buffer
        }
    }

    /// How many elements a new subscriber gets first (0 for `PublishSubject`).
    @usableFromInline let bufferSize: Int
    /// Whether a subscriber arriving after the terminal event still gets the buffer.
    @usableFromInline let replaysAfterStop: Bool
    @usableFromInline let lock = Lock(())
    /// Touched only under `lock`, so no two accesses overlap: the dynamic exclusivity check,
    /// which every access to a class's `var` otherwise pays, is skipped.
    @usableFromInline @exclusivity(unchecked) var unsafeState: State
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
    var stopEvent: Event<Element>? { withState { $0.stopEvent } }
    var lastElement: Element? { withState { $0.buffer.last } }

    /// Records `event`, then delivers it now, or queues it when a delivery is under way.
    @inlinable
    func on(_ event: Event<Element>) {
        let targets: Targets? = withState { state in
            guard state.stopEvent == nil else { return nil }
            let targets: Targets
            switch event {
            case .next(let element):
                if bufferSize > 0 {
                    state.buffer.append(element)
                    if state.buffer.count > bufferSize { state.buffer.removeFirst(state.buffer.count - bufferSize) }
                }
                if let snapshot = state.snapshot {
                    targets = snapshot
                } else {
                    targets = state.observers.subscriptions
                    state.snapshot = targets
                }
            case .error, .completed:
                state.stopEvent = event
                targets = state.observers.removeAll()
                state.snapshot = nil
            }
            if state.isDelivering {
                state.queue.append((event, targets))
                return nil
            }
            state.isDelivering = true
            return targets
        }
        guard let targets else { return }
        for subscription in targets {
            subscription.deliver(event, from: self)
        }
        drainQueue()
    }

    /// Delivers the queued events in order, then ends this thread's turn.
    @inlinable
    func drainQueue() {
        while let (event, targets) = nextQueued() {
            for subscription in targets {
                subscription.deliver(event, from: self)
            }
        }
    }

    /// The next queued event, or `nil` after ending the turn when none is left.
    @inlinable
    func nextQueued() -> (Event<Element>, Targets)? {
        withState { state in
            guard state.queueHead < state.queue.count else {
                state.isDelivering = false
                if !state.queue.isEmpty {
                    state.queue.removeAll(keepingCapacity: state.queue.capacity <= 64)
                    state.queueHead = 0
                }
                return nil
            }
            let item = state.queue[state.queueHead]
            state.queueHead += 1
            if state.queueHead > 64 && state.queueHead * 2 > state.queue.count {
                state.queue.removeFirst(state.queueHead)
                state.queueHead = 0
            }
            return item
        }
    }

    /// Adds an observer and replays the buffer to it on this thread, outside the lock, so
    /// subscribing never waits for observers busy on other threads. A subscriber arriving after
    /// the terminal event gets the buffer (`ReplaySubject`) and the terminal event.
    @inlinable
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        var replay: [Element] = []
        var stop: Event<Element>?
        let subscription = register(observer, replay: &replay, stop: &stop)
        if let subscription, replay.isEmpty { return subscription }
        return finishSubscribing(observer, replay: replay, stop: stop, subscription: subscription)
    }

    /// The rest of `subscribe` when there is something to replay or the subject has ended:
    /// the buffer, then the terminal event (a late subscriber) or what was held meanwhile.
    @usableFromInline
    func finishSubscribing(
        _ observer: AnyObserver<Element>, replay: [Element], stop: Event<Element>?,
        subscription: SubjectSubscription<Element>?
    ) -> any Disposable {
        guard let subscription else {
            for element in replay { observer.on(.next(element)) }
            if let stop { observer.on(stop) }
            return Disposables.create()
        }
        for element in replay {
            if subscription.isDisposed { break }
            observer.on(.next(element))
        }
        finishReplay(of: subscription)
        return subscription
    }

    /// Registers `observer`, marked as replaying when the buffer has something for it, which
    /// `replay` gets; after the terminal event, fills in what a late subscriber gets instead.
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
            if state.subjectIsGone {
                // Through an `asObservable()` that outlived its subject: the buffer, then nothing
                // ever, so nothing is registered that would only hold the subscriber.
                replay = state.buffer
                return nil
            }
            let id = state.nextID
            state.nextID += 1
            let replaying = !state.buffer.isEmpty
            let subscription = SubjectSubscription(id: id, observer: observer, core: self, replaying: replaying)
            state.observers.append(subscription)
            state.snapshot = nil
            if replaying { replay = state.buffer }
            return subscription
        }
    }

    /// Delivers what was held for `subscription` during its replay, then lets deliveries reach
    /// it directly. The flag is cleared under the lock, where `hold` checks it.
    @usableFromInline
    func finishReplay(of subscription: SubjectSubscription<Element>) {
        while true {
            let held: [Event<Element>]? = withState { state in
                if let events = state.held.removeValue(forKey: subscription.id), !events.isEmpty {
                    return events
                }
                subscription.endReplay()
                return nil
            }
            guard let held else { return }
            for event in held {
                if subscription.isDisposed { break }
                subscription.observer.on(event)
            }
        }
    }

    /// Called by a delivery that found `subscription` still replaying: holds `event` for it,
    /// or delivers it when the replay ended meanwhile.
    @usableFromInline
    func hold(_ event: Event<Element>, for subscription: SubjectSubscription<Element>) {
        let deliverNow: Bool = withState { state in
            guard subscription.isReplaying else { return true }
            state.held[subscription.id, default: []].append(event)
            return false
        }
        if deliverNow && !subscription.isDisposed { subscription.observer.on(event) }
    }

    /// Called by the subject's `deinit`: nothing can send to this core again. It lets go of every
    /// subscription, each of which tells its subscriber so, which lets go of it in turn (and so
    /// on down a chain of `map`/`filter`, see `ChainLink`), so that subscriptions dropped without
    /// `dispose()` are freed with the subject instead of keeping each other and this core forever.
    func subjectReleased() {
        let subscriptions = withState { state in
            state.subjectIsGone = true
            state.snapshot = nil
            return state.observers.removeAll()
        }
        for subscription in subscriptions { subscription.endListener() }
    }

    /// Runs `body` with the state, under the lock.
    @inlinable
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { _ in body(&unsafeState) }
    }

    @inlinable
    func remove(id: Int) {
        lock.withLock { _ in
            if unsafeState.observers.remove(id: id) { unsafeState.snapshot = nil }
        }
    }
}

/// One observer of a subject, and the disposable that removes it. The core's registry holds it and
/// it holds the core; an operator's sink, which it holds as its observer, holds it as its upstream
/// subscription. The subject's `deinit` breaks that cycle (`SubjectCore.subjectReleased()`), so a
/// subscription dropped without `dispose()` goes with its subject. (A weak core would break it
/// too, but a weak reference moves the core's reference counts to a side table, which slows
/// every subscribe and dispose: `d.subscribe-dispose` in BENCHMARKS.md.)
// @unchecked: `word` is atomic; `id`, `observer` and `core` are immutable.
@usableFromInline
final class SubjectSubscription<Element>: Disposable, @unchecked Sendable {
    /// `word`'s flag bits (within `ChainLink.flagBits`).
    @usableFromInline static var disposedFlag: UInt { 1 }
    @usableFromInline static var replayingFlag: UInt { 2 }

    @usableFromInline let id: Int
    @usableFromInline let observer: AnyObserver<Element>
    @usableFromInline let core: SubjectCore<Element>
    /// `disposedFlag`, `replayingFlag` while the subscribing thread replays the buffer, and the
    /// address of the subscriber to tell when the subject is gone (see `ChainLink`): one word, so
    /// that a subscription costs no more memory than it did without that subscriber.
    @usableFromInline let word: Atomic<UInt>

    @inlinable
    init(id: Int, observer: AnyObserver<Element>, core: SubjectCore<Element>, replaying: Bool) {
        self.id = id
        self.observer = observer
        self.core = core
        self.word = Atomic(replaying ? Self.replayingFlag : 0)
        Resources.increment()
    }

    deinit { Resources.decrement() }

    @inlinable
    var isDisposed: Bool { word.load(ordering: .acquiring) & Self.disposedFlag != 0 }

    @inlinable
    var isReplaying: Bool { word.load(ordering: .acquiring) & Self.replayingFlag != 0 }

    @inlinable
    func endReplay() {
        word.bitwiseAnd(~Self.replayingFlag, ordering: .acquiringAndReleasing)
    }

    @inlinable
    func deliver(_ event: Event<Element>, from core: SubjectCore<Element>) {
        let flags = word.load(ordering: .acquiring) & ChainLink.flagBits
        if flags == 0 {
            observer.on(event)
        } else if flags & Self.disposedFlag == 0 {
            core.hold(event, for: self)
        }
    }

    /// Registers `listener` to hear that the subject is gone (see `ChainLink`).
    @usableFromInline
    func _notifyWhenUpstreamEnds(_ listener: AnyObject) {
        ChainLink.register(listener, in: word)
    }

    /// Tells the registered listener that the subject is gone; only `SubjectCore.subjectReleased()` calls it.
    func endListener() {
        ChainLink.endListener(in: word)
    }

    @inlinable
    func dispose() {
        let old = word.bitwiseOr(Self.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.disposedFlag == 0 else { return }
        core.removeObserver(core, id)
    }
}
