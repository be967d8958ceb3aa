#if DEBUG
/// Two events overlapping in one sink: from two threads at once, or re-entrantly on one.
struct SynchronizationAnomaly {
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
#endif
