import Locking
import Synchronization

/// Debug builds' check of the grammar at a sink: one event at a time, none sent while the
/// previous one is still being delivered. An overlap is reported through `DebugLog.output` as
/// RxSwift's debug builds do, naming the operator, and the events still go through.
///
/// Release builds compile none of it: `Sink` holds no tracker there and nothing calls one.
#if DEBUG
@usableFromInline
struct SynchronizationTracker: ~Copyable, Sendable {
    /// The thread delivering an event into the sink now (`ThreadIdentity.current`), 0 when none.
    @usableFromInline let owner = Atomic<UInt>(0)

    @inlinable
    init() {}

    /// Marks the start of an event's delivery into `sink`; reports an overlap and returns
    /// `false` when another delivery is under way. Pass the result to `leave`.
    @inlinable
    func enter(_ sink: AnyObject) -> Bool {
        let thread = ThreadIdentity.current
        let (entered, busy) = owner.compareExchange(expected: 0, desired: thread, ordering: .acquiring)
        if !entered { Self.report(sameThread: busy == thread, sink: sink) }
        return entered
    }

    /// Reports an overlap in `sink`; kept out of line, off the inlined path.
    @usableFromInline
    static func report(sameThread: Bool, sink: AnyObject) {
        SynchronizationAnomaly(sameThread: sameThread, sink: sink).report()
    }

    /// Marks the end of the delivery that `enter` started.
    @inlinable
    func leave(_ entered: Bool) {
        if entered { owner.store(0, ordering: .releasing) }
    }
}

extension Sink {
    /// Runs `deliver` (one event's delivery into this sink), reporting it if it overlaps another.
    @inlinable
    final func checkingOverlap(_ deliver: () -> Void) {
        let entered = synchronizationTracker.enter(self)
        deliver()
        synchronizationTracker.leave(entered)
    }
}
#endif
