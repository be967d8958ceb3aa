import Foundation
import Locking

/// One thread of its own that waits on many non-blocking sockets at once (epoll on Linux), runs
/// tasks handed to it from any thread, and fires its own timers.
///
/// ```swift
/// let loop = try EventLoop(label: "Example")
/// loop.execute {
///     loop.register(socket, readable: true, writable: false, handler: connection)
///     let timer = loop.schedule(in: .seconds(5)) { connection.timedOut() }
///     connection.timer = timer          // `timer.cancel()` on the loop when no longer wanted
/// }
/// ```
///
/// Everything but `execute`, `inLoop`, `stop` and the counters must be called on the loop's
/// thread (inside a task, a timer or a handler); debug builds stop at a call from another thread,
/// as they do for the sockets' owners (`assertInLoop()`). Handlers are held strongly while
/// registered. Registrations belong to socket objects, not descriptor numbers: a stale call about
/// a socket closed since (its number given to a new connection) cannot reach the new connection's
/// registration. Interest is handed to the system only when it changes. A loop runs until
/// `stop()`; `EventLoopGroup.shared` owns the loops the transports use, which run for the whole
/// process.
public final class EventLoop: @unchecked Sendable {
    // @unchecked: `slots`, `slotOfSocket`, `freeSlots` and `timers` are touched only on the loop's
    // thread (checked in debug builds); what other threads touch (`inbox`) is behind a lock, the
    // thread's identity is atomic, and `poller.wake()` writes an eventfd.
    private struct Registration {
        let socket: TCPSocket
        var handler: any EventLoopHandler
        var readable: Bool
        var writable: Bool
    }

    /// A registration's place; its generation tells a readiness meant for a registration dropped
    /// since (in the same round of events) from one for the current one.
    private struct Slot {
        var registration: Registration?
        var generation: UInt32 = 0
    }

    private struct Inbox {
        var tasks: [LoopTask] = []
        /// The loop waits in the poller (or is about to): a task handed over must wake it.
        var sleeping = false
        /// A wake-up was sent and not yet consumed: another one would be a wasted system call.
        var wakePending = false
        var closed = false
        /// Wake-ups sent (for tests and diagnostics).
        var wakeUps = 0
    }

    private let inbox = Lock(Inbox())
    private let poller: Poller
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var slotOfSocket: [ObjectIdentifier: Int] = [:]
    private var timers = TimerHeap()
    private var stopping = false
    /// Tasks to run once the current round's events are handled, before the loop waits again.
    private var endOfRound: [RoundTask] = []
    private var endOfRoundRunning: [RoundTask] = []
    /// The tasks taken from the inbox, run outside its lock; kept with its capacity.
    private var runningTasks: [LoopTask] = []
    /// Calls that changed what the system watches (add, modify, remove).
    private var interestChanges = 0
    private let thread = ThreadIdentityCell()
    /// Marks each loop's thread, for `isOnAnyLoopThread` (and for the package's modules that
    /// refuse to block there without knowing the loops).
    private static var loopThreadKey: ThreadSpecificKey { LoopThreadMark.key }

    /// Starts a loop on a thread of its own, named `label` (Linux keeps the first 15 bytes).
    /// Fails only when the system refuses the poller or its wake-up descriptor.
    public init(label: String) throws(SocketError) {
        poller = try Poller()
        let thread = Thread { [self] in run(named: label) }
        thread.start()
    }

    /// Whether the caller runs on this loop's thread.
    public var inLoop: Bool { thread.isCurrent }

    /// Whether the caller runs on any event loop's thread (where no caller code should run).
    public static var isOnAnyLoopThread: Bool { loopThreadKey.value != nil }

    /// The loop whose thread calls, if any.
    public static var current: EventLoop? {
        loopThreadKey.value.map { Unmanaged<EventLoop>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Stops a debug build when the caller is not on this loop's thread (compiled out of release
    /// builds): for the loop's own methods and for every loop-only method of a socket's owner.
    public func assertInLoop(_ function: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        assert(inLoop, "\(function) called off its event loop's thread", file: file, line: line)
    }

    /// Runs `task` on the loop's thread, soon, in submission order. Callable from any thread.
    /// After `stop()` the task is dropped.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        submit(.closure(task))
    }

    /// Queues `task`, waking the loop when it sleeps; false when the loop has ended (nothing queued).
    @discardableResult
    func submit(_ task: LoopTask) -> Bool {
        // From the loop's own thread (a handler, or a task it resumed) nothing needs waking, though
        // `sleeping` still says so until the round's tasks are taken: it looks for tasks before it
        // waits again.
        let fromLoop = thread.isCurrent
        let (accepted, wake) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.closed else { return (false, false) }
            inbox.tasks.append(task)
            // Awake: the loop takes its tasks before it waits again, under this lock.
            guard !fromLoop, inbox.sleeping, !inbox.wakePending else { return (true, false) }
            inbox.wakePending = true
            inbox.wakeUps += 1
            return (true, true)
        }
        if wake { poller.wake() }
        return accepted
    }

    /// Ends the loop after the tasks already submitted: its thread returns and its poller is
    /// closed. Registered sockets are dropped, not closed (their owners close them).
    public func stop() {
        execute { [self] in stopping = true }
    }

    // MARK: - On the loop's thread

    /// Watches `socket` for the given readiness and tells `handler`; replaces an earlier
    /// registration of the same socket (its handler and interest). Returns the system's `errno`
    /// when it refused to watch the socket, else 0.
    @discardableResult
    public func register(_ socket: TCPSocket, readable: Bool, writable: Bool, handler: any EventLoopHandler) -> Int32 {
        assertInLoop()
        let key = ObjectIdentifier(socket)
        if let index = slotOfSocket[key] {
            slots[index].registration?.handler = handler
            return changeInterest(index, readable: readable, writable: writable)
        }
        let index = freeSlots.popLast() ?? {
            slots.append(Slot())
            return slots.count - 1
        }()
        interestChanges += 1
        let failure = poller.add(socket.descriptor, token: token(of: index), readable: readable, writable: writable)
        guard failure == 0 else {
            freeSlots.append(index)
            return failure
        }
        slots[index].registration = Registration(socket: socket, handler: handler, readable: readable, writable: writable)
        slotOfSocket[key] = index
        return 0
    }

    /// Changes what a registered socket is watched for (nothing when it is not registered).
    public func setInterest(_ socket: TCPSocket, readable: Bool, writable: Bool) {
        assertInLoop()
        guard let index = slotOfSocket[ObjectIdentifier(socket)] else { return }
        _ = changeInterest(index, readable: readable, writable: writable)
    }

    private func changeInterest(_ index: Int, readable: Bool, writable: Bool) -> Int32 {
        guard let registration = slots[index].registration,
              registration.readable != readable || registration.writable != writable else { return 0 }
        slots[index].registration?.readable = readable
        slots[index].registration?.writable = writable
        interestChanges += 1
        return poller.modify(registration.socket.descriptor, token: token(of: index), readable: readable, writable: writable)
    }

    /// Stops watching `socket` (call before closing it) and lets go of its handler.
    public func deregister(_ socket: TCPSocket) {
        assertInLoop()
        guard let index = slotOfSocket.removeValue(forKey: ObjectIdentifier(socket)) else { return }
        release(index)
    }

    /// Stops watching `socket` only while `handler` is the one registered for it: a handler that
    /// lost its socket to another owner (who may have closed it, its number then reused) leaves
    /// the new registration alone.
    public func deregister(_ socket: TCPSocket, ifHandler handler: any EventLoopHandler) {
        assertInLoop()
        let key = ObjectIdentifier(socket)
        guard let index = slotOfSocket[key], slots[index].registration?.handler === handler else { return }
        slotOfSocket[key] = nil
        release(index)
    }

    private func release(_ index: Int) {
        if let socket = slots[index].registration?.socket {
            // A socket closed while registered: the system dropped its watch already.
            assert(socket.descriptor >= 0, "a socket was closed before its loop deregistered it")
            if socket.descriptor >= 0 {
                interestChanges += 1
                poller.remove(socket.descriptor)
            }
        }
        slots[index].registration = nil
        slots[index].generation &+= 1
        freeSlots.append(index)
    }

    private func token(of index: Int) -> UInt64 {
        UInt64(slots[index].generation) << 32 | UInt64(index)
    }

    /// Runs `task` on the loop once the events of the current round are handled, before the
    /// loop waits again: for work that gathers what several events produced (answers to hand
    /// over in one go). Call on the loop's thread.
    public func executeAtEndOfRound(_ task: @escaping () -> Void) {
        assertInLoop()
        endOfRound.append(RoundTask(run: task))
    }

    /// Runs `action` on the loop at `deadline`; the handle cancels it.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping () -> Void) -> Scheduled {
        schedule(at: MonotonicTime(deadline), action)
    }

    /// Runs `action` on the loop at `deadline`; the handle cancels it.
    public func schedule(at deadline: MonotonicTime, _ action: @escaping () -> Void) -> Scheduled {
        assertInLoop()
        return Scheduled(loop: self, id: timers.schedule(at: deadline.nanoseconds, action))
    }

    /// Runs `action` on the loop after `delay`; the handle cancels it.
    public func schedule(in delay: Duration, _ action: @escaping () -> Void) -> Scheduled {
        schedule(at: MonotonicTime.now + delay, action)
    }

    /// Cancels the timer `id` if it has not fired (called by `Scheduled.cancel()`).
    func cancelTimer(_ id: UInt64) {
        assertInLoop()
        timers.cancel(id)
    }

    /// Sockets registered now (for tests and diagnostics; on the loop's thread).
    public var registeredCount: Int {
        assertInLoop()
        return slotOfSocket.count
    }

    /// Timer entries held, cancelled ones not yet dropped included (for tests and diagnostics;
    /// on the loop's thread).
    public var pendingTimerEntries: Int {
        assertInLoop()
        return timers.entryCount
    }

    /// Calls that changed what the system watches for this loop's sockets (add, modify, remove),
    /// for tests and diagnostics; on the loop's thread.
    public var interestChangeCount: Int {
        assertInLoop()
        return interestChanges
    }

    /// Wake-ups sent to the loop since it started (for tests and diagnostics). Callable from any thread.
    public var wakeUpCount: Int { inbox.withLock { $0.wakeUps } }

    // MARK: - The loop

    /// The calling thread's name as the system keeps it (for tests and diagnostics: a loop's
    /// thread carries its label).
    public static var currentThreadName: String { SystemLibrary.currentThreadName }

    private func run(named label: String) {
        SystemLibrary.nameCurrentThread(label)
        thread.setCurrent()
        // The key holds the loop (released when the thread ends): `current` reads it.
        Self.loopThreadKey.set(Unmanaged.passRetained(self).toOpaque())
        defer { end() }
        while !stopping {
            runTasks()
            if stopping { return }
            let now = MonotonicTime.now.nanoseconds
            while let action = timers.popDue(at: now) { action() }
            runEndOfRound()
            _ = poller.wait(milliseconds: waitTimeout()) { ready in
                dispatch(ready)
            }
            runEndOfRound()
        }
    }

    private func end() {
        // Work the last tasks gathered for the end of their round (answers to hand over) still runs.
        runEndOfRound()
        for index in slots.indices where slots[index].registration != nil {
            release(index)
        }
        slotOfSocket.removeAll()
        let left = inbox.withLock { inbox -> [LoopTask] in
            inbox.closed = true
            defer { inbox.tasks.removeAll() }
            return inbox.tasks
        }
        poller.close()
        for case .job(let job) in left { Self.runElsewhere(job) }
    }

    /// Hands the job of a task that preferred a loop which has ended to the global concurrent executor.
    static func runElsewhere(_ job: UnownedJob) {
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }

    private func dispatch(_ ready: Poller.Ready) {
        let index = Int(truncatingIfNeeded: ready.token & 0xFFFF_FFFF)
        // A handler called earlier in this round may have deregistered or replaced this socket.
        guard index < slots.count, UInt64(slots[index].generation) == ready.token >> 32,
              let registration = slots[index].registration else { return }
        if registration.writable && ready.writable {
            registration.handler.socketWritable()
        }
        guard UInt64(slots[index].generation) == ready.token >> 32, let current = slots[index].registration,
              current.handler === registration.handler else { return }
        if current.readable && ready.readable {
            current.handler.socketReadable()
        }
    }

    private func runEndOfRound() {
        while !endOfRound.isEmpty {
            // Swapped with a spare that keeps its capacity: no array is made per round.
            swap(&endOfRound, &endOfRoundRunning)
            for task in endOfRoundRunning { task.run() }
            endOfRoundRunning.removeAll(keepingCapacity: true)
        }
    }

    private func runTasks() {
        // Swapped with a spare that keeps its capacity: handing tasks over makes no array.
        inbox.withLock { inbox in
            inbox.sleeping = false
            inbox.wakePending = false
            guard !inbox.tasks.isEmpty else { return }
            swap(&inbox.tasks, &runningTasks)
        }
        for task in runningTasks {
            switch task {
            case .closure(let run): run()
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        runningTasks.removeAll(keepingCapacity: true)
    }

    /// Milliseconds until the next timer (0 when tasks wait), -1 (until woken) when no timer is
    /// set; says the loop is going to sleep, under the same lock as the check for tasks.
    private func waitTimeout() -> Int32 {
        let sleep = timers.nextDeadline.map { $0 - MonotonicTime.now.nanoseconds }
        return inbox.withLock { inbox -> Int32 in
            guard inbox.tasks.isEmpty else { return 0 }
            guard let sleep else {
                inbox.sleeping = true
                return -1
            }
            guard sleep > 0 else { return 0 }
            inbox.sleeping = true
            // Rounded up: a timer never fires early.
            return Int32(clamping: (sleep + 999_999) / 1_000_000)
        }
    }
}
