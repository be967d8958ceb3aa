import EventLoopIO
import Locking

/// An object a loop thread makes on first use and keeps until the thread ends: the work a loop
/// gathers during a round and hands on at its end (`RoundResumes`, `AnswerDelivery`'s batches).
protocol PerLoopThread: AnyObject {
    /// The slot holding each thread's instance (one key per conforming type).
    static var key: ThreadSpecificKey { get }

    init(loop: EventLoop)
}

extension PerLoopThread {
    /// The calling loop thread's instance (made on first use, released when the thread ends).
    static func forCurrentThread(_ loop: EventLoop) -> Self {
        if let existing = key.value { return Unmanaged<Self>.fromOpaque(existing).takeUnretainedValue() }
        let made = Self(loop: loop)
        key.set(Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
