import Foundation
import Locking
import Synchronization

/// A scheduler whose clock is an `Int` tick count that moves only when told to.
///
/// Work due at one tick runs in the order it was scheduled; work scheduled for "now" or for
/// a past tick runs at the current tick. A `Duration` becomes `ticks(for:)` ticks
/// (rounded up), one tick being `resolution`.
/// ```swift
/// let scheduler = VirtualTimeScheduler(initialClock: 0)
/// scheduler.scheduleRelative(.seconds(5)) { print(scheduler.clock) }   // 5
/// scheduler.start()
/// ```
// @unchecked: every mutable field lives in `state`, behind a Lock; actions run outside it.
open class VirtualTimeScheduler: SchedulerType, @unchecked Sendable {
    /// The duration of one tick.
    public let resolution: Duration

    private struct State {
        var clock: Int
        var queue = VirtualQueue()
        var nextSequence = 0
        var isRunning = false
    }

    private let state: Lock<State>
    /// Ticks added to work scheduled for "now" (0, or 1 for RxTest's simulated processing delay).
    private let processingDelay: Int
    /// `resolution` in attoseconds, worked out once instead of on every `ticks(for:)`.
    private let resolutionAttoseconds: Int128

    /// A scheduler at `initialClock`, each tick lasting `resolution`.
    public init(initialClock: Int = 0, resolution: Duration = .seconds(1)) {
        self.resolution = resolution
        self.state = Lock(State(clock: initialClock))
        self.processingDelay = 0
        self.resolutionAttoseconds = Self.attoseconds(resolution)
    }

    /// A scheduler whose work scheduled relative to now for "now" (or a zero relative due time)
    /// runs one tick later when `simulateProcessingDelay` is set, as RxTest's `TestScheduler`
    /// does; work at an absolute tick keeps it.
    package init(initialClock: Int, resolution: Duration, simulateProcessingDelay: Bool) {
        self.resolution = resolution
        self.state = Lock(State(clock: initialClock))
        self.processingDelay = simulateProcessingDelay ? 1 : 0
        self.resolutionAttoseconds = Self.attoseconds(resolution)
    }

    /// The current tick.
    public var clock: Int { state.withLock { $0.clock } }

    /// The current tick as a date (`clock × resolution` after 1970).
    public var now: Date {
        Date(timeIntervalSince1970: TimeInterval(clock) * resolution.timeInterval)
    }

    /// Whether `start()` or `advanceTo(_:)` is running work.
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Ticks for `duration`: rounded up, never negative.
    public func ticks(for duration: Duration) -> Int {
        let total = Self.attoseconds(duration)
        let unit = resolutionAttoseconds
        guard total > 0, unit > 0 else { return 0 }
        let ticks = (total + unit - 1) / unit
        return ticks > Int128(Int.max) ? Int.max : Int(ticks)
    }

    private static func attoseconds(_ value: Duration) -> Int128 {
        let parts = value.components
        return Int128(parts.seconds) * 1_000_000_000_000_000_000 + Int128(parts.attoseconds)
    }

    /// Runs `action` at the current tick, after work already due then (one tick later when the
    /// scheduler simulates a processing delay).
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        scheduleRelative(.zero, action: action)
    }

    /// Runs `action` `ticks(for: dueTime)` ticks from now; a zero due time means "now", which a
    /// scheduler simulating a processing delay turns into the next tick.
    @discardableResult
    public func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        let delta = ticks(for: dueTime)
        return enqueue(action, delayed: true) { clock in
            clock.addingReportingOverflow(delta).overflow ? Int.max : clock + delta
        }
    }

    /// Runs `action` after `startAfter`, then every `period`; each period lasts at least one
    /// tick, so a zero period still moves the clock instead of running forever at one tick.
    @discardableResult
    public func schedulePeriodic(
        startAfter: Duration, period: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let timer = SerialDisposable()
        let periodTicks = max(1, ticks(for: period))
        scheduleTick(in: ticks(for: startAfter), periodTicks: periodTicks, timer: timer, action: action)
        return timer
    }

    private func scheduleTick(
        in delta: Int, periodTicks: Int, timer: SerialDisposable, action: @escaping @Sendable () -> Void
    ) {
        guard !timer.isDisposed else { return }
        timer.disposable = enqueue({ [self] in
            guard !timer.isDisposed else { return }
            action()
            scheduleTick(in: periodTicks, periodTicks: periodTicks, timer: timer, action: action)
        }, delayed: true, at: { clock in clock.addingReportingOverflow(delta).overflow ? Int.max : clock + delta })
    }

    /// Runs `action` at tick `time`, or at the current tick when `time` has passed, also when
    /// the scheduler simulates a processing delay (RxTest delays relative work only).
    @discardableResult
    public func scheduleAbsolute(_ time: Int, action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(action, delayed: false) { _ in time }
    }

    /// Whether work due "now" or earlier runs one tick later (RxTest's processing delay).
    /// Operators that RxSwift runs as a chain of such steps (`observe(on:)`, `delay`) take one
    /// step per event on such a scheduler, so their timelines match RxTest's.
    @usableFromInline var simulatesProcessingDelay: Bool { processingDelay != 0 }

    /// Queues `action` at `due(clock)`; a due tick at or before the clock becomes the clock, plus
    /// the processing delay when `delayed` (relative work, as RxTest's `adjustScheduledTime`
    /// applies to `scheduleRelative` and not to `scheduleAbsoluteVirtual`).
    private func enqueue(_ action: @escaping @Sendable () -> Void, delayed: Bool, at due: (Int) -> Int) -> any Disposable {
        let item = ScheduledAction(action)
        let delay = delayed ? processingDelay : 0
        state.withLock { state in
            let wanted = due(state.clock)
            let time = wanted <= state.clock ? state.clock + delay : wanted
            state.queue.push(VirtualEntry(time: time, sequence: state.nextSequence, item: item))
            state.nextSequence += 1
        }
        return item
    }

    /// Runs every queued item, advancing the clock to each one's tick, until none is left or `stop()`.
    /// Disposed items are dropped without moving the clock.
    open func start() {
        run(until: nil)
    }

    /// Runs the items due at or before `time`, then sets the clock to `time` (never backwards).
    open func advanceTo(_ time: Int) {
        run(until: time)
        state.withLock { state in state.clock = max(state.clock, time) }
    }

    /// Advances the clock by `ticks`.
    public func advanceBy(_ ticks: Int) {
        advanceTo(clock + ticks)
    }

    /// Moves the clock `ticks` ahead without running the work that comes due meanwhile (it runs
    /// on the next `start()` or `advanceTo(_:)`, late): RxSwift's `sleep`.
    public func sleep(_ ticks: Int) {
        guard ticks > 0 else { return }
        state.withLock { state in
            state.clock = state.clock.addingReportingOverflow(ticks).overflow ? Int.max : state.clock + ticks
        }
    }

    /// Makes a running `start()` or `advanceTo(_:)` return after the current item.
    public func stop() {
        state.withLock { $0.isRunning = false }
    }

    private func run(until limit: Int?) {
        state.withLock { $0.isRunning = true }
        while true {
            // One critical section per item: disposed items are dropped, and the due item's
            // action is claimed (`take`) here, so running it needs no second lock.
            let next: (@Sendable () -> Void)? = state.withLock { state in
                guard state.isRunning else { return nil }
                while let top = state.queue.peek {
                    if let limit, top.time > limit { return nil }
                    _ = state.queue.pop()
                    guard let action = top.item.take() else { continue }
                    state.clock = max(state.clock, top.time)
                    return action
                }
                return nil
            }
            guard let next else { break }
            next()
        }
        state.withLock { $0.isRunning = false }
    }
}

struct VirtualEntry {
    let time: Int
    let sequence: Int
    let item: ScheduledAction

    func precedes(_ other: VirtualEntry) -> Bool {
        time != other.time ? time < other.time : sequence < other.sequence
    }
}

/// A binary min-heap ordered by (time, sequence): FIFO within a tick.
struct VirtualQueue {
    private var heap: [VirtualEntry] = []

    var peek: VirtualEntry? { heap.first }

    mutating func push(_ entry: VirtualEntry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> VirtualEntry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count && heap[left].precedes(heap[first]) { first = left }
            if right < heap.count && heap[right].precedes(heap[first]) { first = right }
            if first == parent { break }
            heap.swapAt(parent, first)
            parent = first
        }
        return top
    }
}
