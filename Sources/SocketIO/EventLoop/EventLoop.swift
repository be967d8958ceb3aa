import Dispatch
import Locking

/// One thread that waits on many non-blocking sockets at once with `poll`, runs tasks handed to
/// it from any thread, and fires its own timers (a heap of deadlines).
///
/// The loop sleeps until a socket event, a task or its next timer, and it publishes when that
/// timer is due: `execute(by:_:)` uses that to hand over a task that can wait until then
/// without waking it.
///
/// Everything but `execute`, `execute(by:_:)` and `wakeUpCount` must be called on the loop's
/// thread (inside a task, a timer or a handler); debug builds stop at a call from another
/// thread. Handlers are held strongly while registered. Registrations belong to socket objects,
/// not descriptor numbers: a stale call about a socket closed since (its number given to a new
/// connection) cannot reach the new connection's registration.
/// A loop runs until `stop()`; `EventLoopGroup.shared` owns the loops the transports use, which
/// run for the whole process.
public final class EventLoop: @unchecked Sendable {
    // @unchecked: `registrations` and `timers` are touched only on the loop's thread; what other
    // threads touch (`inbox`) is behind a lock, and the wake-up pipe is written atomically.
    private struct Registration {
        let socket: TCPSocket
        let handler: any EventLoopHandler
        var readable: Bool
        var writable: Bool
    }

    private struct Inbox {
        var tasks: [@Sendable () -> Void] = []
        var wakePending = false
        var closed = false
        /// When the loop's `poll` returns at the latest; nil while the loop runs. Set under the
        /// lock with the check for pending tasks, so a task handed over after the check sees it.
        var sleepingUntil: ContinuousClock.Instant?
        /// Wake-up bytes written (for tests and diagnostics).
        var wakeUps = 0
    }

    private let inbox = Lock(Inbox())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Keyed by the socket object, never by its descriptor number, which the system reuses.
    private var registrations: [ObjectIdentifier: Registration] = [:]
    private var timers = TimerHeap()
    private var stopping = false
    /// Marks every loop's thread with its loop.
    private static let threadKey = DispatchSpecificKey<ObjectIdentifier>()
    private let queue: DispatchQueue

    /// Starts a loop on its own thread (named `label`). Fails only when no pipe can be made.
    public init(label: String) throws(SocketError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .system(operation: .pipe, errno: errno) }
        for fd in fds {
            SystemLibrary.setNonBlocking(fd, true)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.threadKey, value: ObjectIdentifier(self))
        queue.async { [self] in run() }
    }

    /// Whether the caller runs on this loop's thread.
    public var inLoop: Bool { DispatchQueue.getSpecific(key: Self.threadKey) == ObjectIdentifier(self) }

    /// Whether the caller runs on any event loop's thread (where no caller code should run).
    public static var isOnAnyLoopThread: Bool { DispatchQueue.getSpecific(key: threadKey) != nil }

    /// Runs `task` on the loop's thread, soon, in submission order. Callable from any thread.
    /// After `stop()` the task is dropped.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        // The wake-up byte is written under the lock, so that it never reaches a pipe that
        // `stop()` closed (and whose descriptor number may already belong to another file).
        // On the loop's own thread no byte is needed: the loop runs pending tasks before it
        // polls again, and polls without waiting while any are pending.
        let wakeWrite = self.wakeWrite
        let onLoop = inLoop
        inbox.withLock { inbox in
            guard !inbox.closed else { return }
            inbox.tasks.append(task)
            guard !onLoop else { return }
            Self.wake(&inbox, wakeWrite)
        }
    }

    /// Runs `task` on the loop's thread no later than `deadline` (or as soon after it as the loop
    /// can), in submission order with `execute`'s tasks. It wakes the loop only when the loop
    /// sleeps past `deadline`; otherwise the task runs when the loop next wakes, for a socket, a
    /// timer or another task. For work that only has to be in place by a deadline, such as arming
    /// the timers of a request whose answer will wake the loop anyway.
    ///
    /// ```swift
    /// loop.execute(by: .now + .seconds(30)) { armTimers() }
    /// ```
    public func execute(by deadline: ContinuousClock.Instant, _ task: @escaping @Sendable () -> Void) {
        let wakeWrite = self.wakeWrite
        let onLoop = inLoop
        inbox.withLock { inbox in
            guard !inbox.closed else { return }
            inbox.tasks.append(task)
            // Awake (nil): the loop checks for tasks under this lock before it sleeps again.
            guard !onLoop, let until = inbox.sleepingUntil, until > deadline else { return }
            Self.wake(&inbox, wakeWrite)
        }
    }

    /// Writes the wake-up byte unless one is pending; called under the inbox lock.
    private static func wake(_ inbox: inout Inbox, _ wakeWrite: Int32) {
        guard !inbox.wakePending else { return }
        inbox.wakePending = true
        inbox.wakeUps += 1
        var byte: UInt8 = 1
        _ = SystemLibrary.write(wakeWrite, &byte, 1)
    }

    /// Ends the loop after the tasks already submitted: its thread returns and its wake-up pipe
    /// is closed. Registered sockets are dropped, not closed (their owners close them).
    public func stop() {
        execute { [self] in stopping = true }
    }

    // MARK: - On the loop's thread

    /// Watches `socket` for the given readiness and tells `handler`; replaces an earlier registration.
    public func register(_ socket: TCPSocket, readable: Bool, writable: Bool, handler: any EventLoopHandler) {
        assertInLoop()
        registrations[ObjectIdentifier(socket)] = Registration(socket: socket, handler: handler, readable: readable, writable: writable)
    }

    /// Changes what a registered socket is watched for.
    public func setInterest(_ socket: TCPSocket, readable: Bool, writable: Bool) {
        assertInLoop()
        registrations[ObjectIdentifier(socket)]?.readable = readable
        registrations[ObjectIdentifier(socket)]?.writable = writable
    }

    /// Stops watching `socket` (call before closing it) and lets go of its handler.
    public func deregister(_ socket: TCPSocket) {
        assertInLoop()
        registrations[ObjectIdentifier(socket)] = nil
    }

    /// Stops watching `socket` only while `handler` is the one registered for it: a handler that
    /// lost its socket to another owner (who may have closed it, its number then reused) leaves
    /// the new registration alone.
    public func deregister(_ socket: TCPSocket, ifHandler handler: any EventLoopHandler) {
        assertInLoop()
        guard let registration = registrations[ObjectIdentifier(socket)], registration.handler === handler else { return }
        registrations[ObjectIdentifier(socket)] = nil
    }

    /// Runs `action` on the loop at `deadline`; returns the id `cancelTimer` takes.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping () -> Void) -> UInt64 {
        assertInLoop()
        return timers.schedule(at: deadline, action)
    }

    /// Cancels a timer that has not fired.
    public func cancelTimer(_ id: UInt64) {
        assertInLoop()
        timers.cancel(id)
    }

    /// Stops a debug build at a loop-only call made from another thread (compiled out of release builds).
    private func assertInLoop(_ function: StaticString = #function) {
        assert(inLoop, "EventLoop.\(function) called off the loop's thread")
    }

    /// Sockets registered now (for tests and diagnostics).
    public var registeredCount: Int { registrations.count }

    /// Timer entries held, cancelled ones not yet dropped included (for tests and diagnostics).
    public var pendingTimerEntries: Int { timers.entryCount }

    /// Wake-up bytes written since the loop started (for tests and diagnostics). Callable from any thread.
    public var wakeUpCount: Int { inbox.withLock { $0.wakeUps } }

    // MARK: - The loop

    private func run() {
        var entries: [pollfd] = []
        /// The registration each entry after the wake-up pipe's polls.
        var watched: [ObjectIdentifier] = []
        defer {
            registrations.removeAll()
            let (wakeRead, wakeWrite) = (self.wakeRead, self.wakeWrite)
            inbox.withLock { inbox in
                inbox.closed = true
                inbox.tasks.removeAll()
                _ = SystemLibrary.close(wakeRead)
                _ = SystemLibrary.close(wakeWrite)
            }
        }
        while !stopping {
            runTasks()
            if stopping { return }
            for action in timers.takeDue(at: .now) { action() }
            entries.removeAll(keepingCapacity: true)
            watched.removeAll(keepingCapacity: true)
            entries.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for (key, registration) in registrations where registration.readable || registration.writable {
                let fd = registration.socket.descriptor
                // A socket closed while registered: its number may belong to another connection now.
                assert(fd >= 0, "a socket was closed before its loop deregistered it")
                guard fd >= 0 else { continue }
                var events: Int16 = 0
                if registration.readable { events |= Int16(POLLIN) }
                if registration.writable { events |= Int16(POLLOUT) }
                entries.append(pollfd(fd: fd, events: events, revents: 0))
                watched.append(key)
            }
            let ready = poll(&entries, nfds_t(entries.count), pollTimeout())
            guard ready > 0 else { continue }
            if entries[0].revents != 0 { drainWakePipe() }
            for index in 1..<entries.count where entries[index].revents != 0 {
                dispatch(entries[index].revents, to: watched[index - 1])
            }
        }
    }

    private func dispatch(_ revents: Int16, to key: ObjectIdentifier) {
        // A handler called earlier in this round may have deregistered or replaced this socket.
        guard let registration = registrations[key] else { return }
        let failed = revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
        if registration.writable && (revents & Int16(POLLOUT) != 0 || failed) {
            registration.handler.socketWritable()
        }
        guard let current = registrations[key], current.handler === registration.handler else { return }
        if current.readable && (revents & Int16(POLLIN) != 0 || failed) {
            current.handler.socketReadable()
        }
    }

    private func runTasks() {
        let tasks = inbox.withLock { inbox -> [@Sendable () -> Void] in
            inbox.wakePending = false
            inbox.sleepingUntil = nil
            // Most rounds find none: no buffer is allocated for them (emptying a shared array
            // while keeping its capacity would allocate a fresh one every round).
            guard !inbox.tasks.isEmpty else { return [] }
            defer { inbox.tasks = [] }
            return inbox.tasks
        }
        for task in tasks { task() }
    }

    private func drainWakePipe() {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
            while SystemLibrary.read(wakeRead, buffer.baseAddress, buffer.count) > 0 {}
        }
    }

    /// Milliseconds until the next timer (0 when tasks wait), -1 (until woken) when no timer is
    /// set; publishes when the loop will wake, under the same lock as the check for tasks.
    private func pollTimeout() -> Int32 {
        let now = ContinuousClock.now
        let sleep = timers.nextDeadline().map { now.duration(to: $0) }
        return inbox.withLock { inbox -> Int32 in
            guard inbox.tasks.isEmpty else { return 0 }
            guard let sleep else {
                inbox.sleepingUntil = now + .seconds(86_400 * 365 * 100)
                return -1
            }
            guard sleep > .zero else { return 0 }
            inbox.sleepingUntil = now + sleep
            return TCPSocket.milliseconds(sleep)
        }
    }
}
