import Locking
import Reactive

/// Lets at most `limit` loads run at once; the others wait, first come first served, and a
/// waiting load that is disposed leaves the queue without ever starting. A load whose key is
/// already running starts at once without a slot of its own, since it shares that load's request;
/// when the load holding the slot ends first, a sharer takes the slot over.
///
/// Hand-written rather than `merge(maxConcurrent:)`: a load sharing a running key's request
/// takes no slot, and a waiting load leaves the queue (and `waitingCount`) when disposed.
final class LoadGate: Sendable {
    private struct Waiter {
        let id: Int
        let key: String
        let start: @Sendable () -> Void
    }

    private struct State {
        var nextID = 0
        var slots = 0
        /// Running loads by id: the key, and whether the load holds a slot.
        var running: [Int: (key: String, holdsSlot: Bool)] = [:]
        var runningKeys: [String: Int] = [:]
        var queue: [Waiter] = []
    }

    /// The most loads holding a slot at once.
    let limit: Int
    private let state = Lock(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Loads waiting for a slot.
    var waitingCount: Int { state.withLock { $0.queue.count } }

    /// Loads running (sharing ones included).
    var runningCount: Int { state.withLock { $0.running.count } }

    /// `single`, started only when a slot is free (or its `key` is already running).
    ///
    /// A waiting load starts on the thread that freed its slot; a dispose that comes while that
    /// thread is still sending the request keeps the slot until the request is cancelled
    /// (see ``HandedOffSubscription``), so the limit holds for requests too.
    func limited<Element>(_ single: Single<Element>, key: String) -> Single<Element> {
        Single.create { [self] observer in
            let subscription = HandedOffSubscription()
            let id = state.withLock { state -> Int in
                defer { state.nextID += 1 }
                return state.nextID
            }
            let start: @Sendable () -> Void = { [self] in
                let disposedMeanwhile = subscription.subscribe {
                    single.subscribe { [self] result in
                        finish(id)
                        observer(result)
                    }
                }
                if disposedMeanwhile { finish(id) }
            }
            let startNow = state.withLock { state -> Bool in
                if state.runningKeys[key, default: 0] > 0 {
                    state.running[id] = (key, false)
                    state.runningKeys[key, default: 0] += 1
                    return true
                }
                guard state.slots < limit else {
                    state.queue.append(Waiter(id: id, key: key, start: start))
                    return false
                }
                state.slots += 1
                state.running[id] = (key, true)
                state.runningKeys[key, default: 0] += 1
                return true
            }
            if startNow { start() }
            return Disposables.create { [self] in
                // the request is cancelled before its slot goes to the next load
                if subscription.dispose() { finish(id) }
            }
        }
    }

    /// Ends load `id` (running or waiting; a second call does nothing) and starts those that can.
    private func finish(_ id: Int) {
        let ready = state.withLock { state -> [Waiter] in
            if let index = state.queue.firstIndex(where: { $0.id == id }) {
                state.queue.remove(at: index)
                return []
            }
            guard let ended = state.running.removeValue(forKey: id) else { return [] }
            state.runningKeys[ended.key, default: 1] -= 1
            if state.runningKeys[ended.key] == 0 { state.runningKeys[ended.key] = nil }
            if ended.holdsSlot {
                // a load still sharing this key's request inherits the slot, since the request goes on
                if let heir = state.running.first(where: { $0.value.key == ended.key && !$0.value.holdsSlot })?.key {
                    state.running[heir]?.holdsSlot = true
                } else {
                    state.slots -= 1
                }
            }
            var ready: [Waiter] = []
            while let next = state.queue.first, state.slots < limit || state.runningKeys[next.key] != nil {
                state.queue.removeFirst()
                let sharing = state.runningKeys[next.key] != nil
                if !sharing { state.slots += 1 }
                state.running[next.id] = (next.key, !sharing)
                state.runningKeys[next.key, default: 0] += 1
                ready.append(next)
            }
            return ready
        }
        for waiter in ready { waiter.start() }
    }
}
