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

/// The plain-Swift limit for virtual time: a min-heap of (tick, sequence, closure), no locks.
struct PlainTimerHeap {
    private struct Entry {
        let time: Int
        let sequence: Int
        let action: () -> Void

        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : sequence < other.sequence
        }
    }

    private var entries: [Entry] = []
    private var sequence = 0

    mutating func push(at time: Int, _ action: @escaping () -> Void) {
        entries.append(Entry(time: time, sequence: sequence, action: action))
        sequence += 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Runs every entry in order; returns the last tick.
    mutating func runAll() -> Int {
        var clock = 0
        while let top = pop() {
            clock = top.time
            top.action()
        }
        return clock
    }

    private mutating func pop() -> Entry? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let top = entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < entries.count && entries[left].precedes(entries[first]) { first = left }
            if right < entries.count && entries[right].precedes(entries[first]) { first = right }
            if first == parent { break }
            entries.swapAt(parent, first)
            parent = first
        }
        return top
    }
}
