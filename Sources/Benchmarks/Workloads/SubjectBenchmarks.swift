import Locking
import Reactive
import Synchronization

/// b: fan-out of a subject to 10 subscribers; d: subscribe and dispose on a subject.
enum SubjectBenchmarks {
    static func runFanOut(_ context: BenchmarkContext) {
        let elements = context.size(100_000)
        let subscribers = 10
        context.compare("b.publish-10-subscribers", operations: elements * subscribers,
                        baselineName: "10 closures in an array",
                        ours: { fanOut(elements, subscribers) }, baseline: { closureArray(elements, subscribers) })
    }

    static func runSubscribeDispose(_ context: BenchmarkContext) {
        let cycles = context.size(1_000_000)
        context.compare("d.subscribe-dispose", operations: cycles, baselineName: "insert/remove in a locked dictionary",
                        ours: { subscribeDispose(cycles) }, baseline: { lockedDictionary(cycles) })
    }

    private static func fanOut(_ elements: Int, _ subscribers: Int) -> Int {
        let subject = PublishSubject<Int>()
        let tally = Tally()
        let subscriptions = (0..<subscribers).map { _ in subject.subscribe(onNext: { tally.add($0) }) }
        for element in 0..<elements { subject.onNext(element) }
        subscriptions.forEach { $0.dispose() }
        return tally.value
    }

    private static func closureArray(_ elements: Int, _ subscribers: Int) -> Int {
        let tally = Tally()
        let closures: [(Int) -> Void] = (0..<subscribers).map { _ in opaque { tally.add($0) } }
        for element in 0..<elements {
            for closure in closures { closure(element) }
        }
        return tally.value
    }

    private static func subscribeDispose(_ cycles: Int) -> Int {
        let subject = PublishSubject<Int>()
        let tally = Tally()
        for _ in 0..<cycles {
            subject.subscribe(onNext: { tally.add($0) }).dispose()
        }
        subject.onNext(1)
        return tally.value &+ cycles
    }

    /// The plain-Swift registry: observers by token.
    private struct Registry {
        var next = 0
        var closures: [Int: @Sendable (Int) -> Void] = [:]
    }

    private static func lockedDictionary(_ cycles: Int) -> Int {
        let observers = Lock(Registry())
        let tally = Tally()
        var removed = 0
        for _ in 0..<cycles {
            let made: @Sendable (Int) -> Void = { tally.add($0) }
            let closure = opaque(made)
            let key = observers.withLock { state in
                let key = state.next
                state.next += 1
                state.closures[key] = closure
                return key
            }
            if observers.withLock({ $0.closures.removeValue(forKey: key) }) != nil { removed += 1 }
        }
        return tally.value &+ removed
    }
}
