import Synchronization

/// A fixed set of event loops, handed out in turn.
public final class EventLoopGroup: Sendable {
    /// The loops, one thread each.
    public let loops: [EventLoop]
    private let next = Atomic<Int>(0)

    /// Starts `count` loops (at least one).
    public init(count: Int, label: String = "EventLoop") throws(SocketError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(label: "\(label).\(index)"))
        }
        self.loops = loops
    }

    /// The next loop in turn.
    public func nextLoop() -> EventLoop {
        loops[next.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// The process-wide group the transports share: two loops (two threads); nil only when
    /// the system refused a pipe.
    public static let shared: EventLoopGroup? = try? EventLoopGroup(count: 2, label: "SocketIO.EventLoop")
}
