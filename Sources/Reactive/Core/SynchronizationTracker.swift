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

/// Two events overlapping in one sink: from two threads at once, or re-entrantly on one.
struct SynchronizationAnomaly: Equatable {
    /// Whether the overlapping event came from the thread already delivering one (reentrancy).
    let sameThread: Bool
    /// The sink's type, e.g. `CreateSink<Int>`.
    let sinkType: String

    init(sameThread: Bool, sink: AnyObject) {
        self.sameThread = sameThread
        sinkType = String(describing: type(of: sink))
    }

    /// The operator the sink implements: `CreateSink<Int>` is `create`.
    var operatorName: String {
        var name = sinkType.prefix(while: { $0 != "<" })
        if name.hasSuffix("Sink"), name.count > 4 { name = name.dropLast(4) }
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    /// The report, RxSwift's heading followed by what went wrong and what to do.
    var message: String {
        if sameThread {
            return """
            ⚠️ Reentrancy anomaly was detected in `\(operatorName)` (\(sinkType)).
              > Problem: an event was sent into it while it was still delivering the previous one on the same \
            thread, which breaks the sequence grammar `next* (error | completed)?`: events must not overlap.
              > Interpretation: an observer feeds the sequence it observes (a cycle), directly or through other operators.
              > Remedy: break the cycle, or send the new event later (`observe(on:)` a serial scheduler).
            """
        }
        return """
        ⚠️ Synchronization anomaly was detected in `\(operatorName)` (\(sinkType)).
          > Problem: two threads sent it events at once, which breaks the sequence grammar \
        `next* (error | completed)?`: events must not overlap.
          > Interpretation: the source emits from several threads without serializing them, so the order and \
        effects of its events depend on the thread scheduler.
          > Remedy: emit from one thread or under a lock, or send through a subject (which serializes its senders).
        """
    }

    /// Writes the message to `DebugLog.output`.
    func report() {
        DebugLog.write(message)
    }
}
