import Reactive
import ReactiveTesting

/// e1: relative actions on the test scheduler; e2: Singles with `timeout(10)`, half answered at t=5.
enum VirtualTimeBenchmarks {
    static func run(_ context: BenchmarkContext) {
        let actions = context.size(200_000)
        context.compare("e1.schedule-relative", operations: actions, baselineName: "binary heap of closures",
                        ours: { scheduleRelative(actions) }, baseline: { plainHeap(actions) })

        let singles = context.size(100_000)
        context.compare("e2.single-timeout", operations: singles, baselineName: "heap: answer at 5, timeout at 10",
                        ours: { singlesWithTimeout(singles) }, baseline: { plainTimeouts(singles) })
    }

    private static func scheduleRelative(_ actions: Int) -> Int {
        let scheduler = TestScheduler(initialClock: 0)
        let tally = Tally()
        for action in 0..<actions {
            scheduler.scheduleRelative(.seconds(action % 1_000)) { tally.add(action) }
        }
        scheduler.start()
        return tally.value &+ scheduler.clock
    }

    private static func plainHeap(_ actions: Int) -> Int {
        var heap = PlainTimerHeap()
        let tally = Tally()
        for action in 0..<actions {
            heap.push(at: action % 1_000, opaque { tally.add(action) })
        }
        return tally.value &+ heap.runAll()
    }

    private static func singlesWithTimeout(_ singles: Int) -> Int {
        let scheduler = TestScheduler(initialClock: 0)
        let tally = Tally()
        for index in 0..<singles {
            _ = Single<Int>.create { observer in
                guard index & 1 == 0 else { return Disposables.create() }
                return scheduler.scheduleRelative(.seconds(5)) { observer(.success(index)) }
            }
            .timeout(.seconds(10), scheduler: scheduler)
            .subscribe(onSuccess: { tally.add($0) }, onFailure: { _ in tally.add(1) })
        }
        scheduler.start()
        return tally.value &+ scheduler.clock
    }

    /// Answered once: the first of the answer and the timeout wins.
    private final class Pending {
        var done = false
    }

    private static func plainTimeouts(_ singles: Int) -> Int {
        var heap = PlainTimerHeap()
        let tally = Tally()
        for index in 0..<singles {
            let pending = Pending()
            let onSuccess: (Int) -> Void = opaque { tally.add($0) }
            let onTimeout: () -> Void = opaque { tally.add(1) }
            if index & 1 == 0 {
                heap.push(at: 5) {
                    guard !pending.done else { return }
                    pending.done = true
                    onSuccess(index)
                }
            }
            heap.push(at: 10) {
                guard !pending.done else { return }
                pending.done = true
                onTimeout()
            }
        }
        return tally.value &+ heap.runAll()
    }
}
