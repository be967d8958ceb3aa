import Synchronization

/// A fixed set of event loops, handed out in turn.
public final class EventLoopGroup: Sendable {
    /// The loops, one thread each.
    public let loops: [EventLoop]
    private let next = Atomic<Int>(0)

    /// Starts `count` loops (at least one), each on a thread named `label.N`.
    public init(count: Int, label: String = "EventLoop") throws(SocketError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(label: "\(label).\(index)"))
        }
        self.loops = loops
    }

    deinit {
        for loop in loops { loop.stop() }
    }

    /// The next loop in turn.
    public func nextLoop() -> EventLoop {
        loops[next.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// The group's loop whose thread calls, if any.
    public var currentLoop: EventLoop? {
        EventLoop.current.flatMap { current in loops.first { $0 === current } }
    }

    /// How many loops a group made for this machine runs: one per processor the process may
    /// use, at least one.
    public static var machineLoopCount: Int { SystemLibrary.processorCount }

    /// The process-wide group the transports share, one loop per processor (started on first
    /// use, running for the whole process); nil only when the system refused every poller.
    public static let shared: EventLoopGroup? = try? EventLoopGroup(count: machineLoopCount, label: "EventLoopIO")
}
