import Foundation
import EventLoopIO

/// Opening one connection to a host, as a value, with Happy Eyeballs (RFC 8305): a literal
/// address is used at once, a name is looked up off the loop, then the addresses are tried in the
/// system's order with the families interleaved (§4: the system's first, then one of the other
/// family, and so on, so an IPv4 address does not wait behind every IPv6 one), the next one
/// started `staggerDelay` after the previous one without waiting for it to fail (at once when one
/// fails), all within one connect timer. The first attempt that
/// connects wins and the others are closed.
///
/// It takes what happened (the literal read or not, the lookup's result, an attempt started,
/// refused at once or finished later, the stagger timer, the connect timer) and returns what to
/// do; `ConnectionOpener` performs the actions and keeps one socket per attempt, by index. Each
/// event switches over the state explicitly; a pair the driver cannot produce (it closes every
/// socket and cancels both timers once the connect is decided) is a `preconditionFailure` naming
/// it. A new value per connect. It logs each attempt (`log`: its address, start, end and outcome)
/// for the request's timings, at the instant each event gives (now, unless a test says).
struct ConnectAttempts: Equatable, Sendable {
    /// How long an attempt runs alone before the next address is tried too (RFC 8305's default).
    static let staggerDelay: Duration = .milliseconds(250)

    enum State: Equatable, Sendable {
        /// Nothing started yet.
        case idle
        /// The name is being looked up off the loop.
        case resolving
        /// Attempts are under way.
        case connecting
        /// The attempt `index` connected.
        case connected(index: Int)
        /// Failed: only a lookup that outlived the connect timer may still report.
        case ended
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Nothing (an outcome that changes nothing, or one attempt failed while others run).
        case none
        /// Looks the name up off the loop (it may block); the result goes to `resolved`.
        case resolve
        /// Opens a socket for `address` and starts connecting it as attempt `index`; the outcome
        /// goes to `started` or `startFailed`.
        case start(SocketAddress, index: Int)
        /// Watches attempt `index`'s socket for room to write (the kernel finishes the connect;
        /// its outcome goes to `finished`), and arms the stagger timer when `staggerNext`.
        case await(index: Int, staggerNext: Bool)
        /// Attempt `index` is connected: the driver keeps its socket, closes every other
        /// attempt's and cancels the connect and stagger timers.
        case connected(index: Int)
        /// Closes every attempt's socket, cancels the timers and fails with `failure`
        /// (`.cannotFindHost`, `.cannotConnect` or `.timedOut(.connect)`).
        case fail(ExchangeFailure)
    }

    private(set) var state = State.idle
    private(set) var addresses: [SocketAddress] = []
    /// The next address not tried yet.
    private(set) var nextIndex = 0
    /// Attempts started and not finished.
    private(set) var pending: Set<Int> = []
    /// The errno of the last attempt that failed; reported when none is left.
    private(set) var lastErrno: Int32 = ECONNREFUSED
    /// Every attempt started, by index: when, and how it ended.
    private(set) var log: [HTTPClientTimings.ConnectAttempt] = []

    /// Starts with the host read as numeric addresses (`literal`), or nil when it is a name.
    mutating func begin(literal: [SocketAddress]?, at now: MonotonicTime = .now) -> Action {
        switch state {
        case .idle:
            guard let literal else {
                state = .resolving
                return .resolve
            }
            return tryAddresses(literal, at: now)
        case .resolving, .connecting, .connected, .ended:
            impossible("begin")
        }
    }

    /// The lookup finished.
    mutating func resolved(_ result: Result<[SocketAddress], SocketError>, at now: MonotonicTime = .now) -> Action {
        switch state {
        case .resolving:
            switch result {
            case .success(let list):
                return tryAddresses(list, at: now)
            case .failure(.addressResolution(_, let code)):
                return failed(.cannotFindHost(code: code), at: now)
            case .failure(let error):
                return failed(.cannotConnect(errno: error.systemErrno ?? EHOSTUNREACH), at: now)
            }
        case .ended:
            // The connect timer fired while the name was looked up: the lookup's end is dropped.
            return .none
        case .idle, .connecting, .connected:
            impossible("resolved")
        }
    }

    /// Attempt `index` was started; `inProgress` when the kernel finishes it later.
    mutating func started(index: Int, inProgress: Bool, at now: MonotonicTime = .now) -> Action {
        switch state {
        case .connecting where pending.contains(index):
            guard inProgress else { return won(index, at: now) }
            return .await(index: index, staggerNext: nextIndex < addresses.count)
        case .idle, .resolving, .connecting, .connected, .ended:
            impossible("started(\(index))")
        }
    }

    /// Starting attempt `index` failed at once (`errno` when the system gave one): the next address.
    mutating func startFailed(index: Int, errno: Int32?, at now: MonotonicTime = .now) -> Action {
        switch state {
        case .connecting where pending.contains(index):
            return lost(index, errno: errno, at: now)
        case .idle, .resolving, .connecting, .connected, .ended:
            impossible("startFailed(\(index))")
        }
    }

    /// Attempt `index` finished: `errno` 0 when it connected, else why it failed.
    mutating func finished(index: Int, errno: Int32, at now: MonotonicTime = .now) -> Action {
        switch state {
        case .connecting where pending.contains(index):
            return errno == 0 ? won(index, at: now) : lost(index, errno: errno, at: now)
        case .idle, .resolving, .connecting, .connected, .ended:
            // A failed attempt's socket is closed at once, and every socket once the connect is
            // decided: none reports twice or late.
            impossible("finished(\(index))")
        }
    }

    /// The stagger timer fired: the next address starts beside the ones under way (nothing when a
    /// failure started the last one already).
    mutating func staggerTimerFired(at now: MonotonicTime = .now) -> Action {
        switch state {
        case .connecting:
            return startNext(at: now)
        case .idle, .resolving, .connected, .ended:
            impossible("staggerTimerFired")
        }
    }

    /// The connect timer fired: resolving or connecting, the connect fails.
    mutating func timerFired(at now: MonotonicTime = .now) -> Action {
        switch state {
        case .resolving, .connecting:
            return failed(.timedOut(.connect), at: now)
        case .idle, .connected, .ended:
            impossible("timerFired")
        }
    }

    private func impossible(_ event: String) -> Never {
        preconditionFailure("ConnectAttempts: \(event) in state \(state)")
    }

    private mutating func tryAddresses(_ list: [SocketAddress], at now: MonotonicTime) -> Action {
        addresses = Self.interleavingFamilies(list)
        state = .connecting
        return startNext(at: now)
    }

    private mutating func startNext(at now: MonotonicTime) -> Action {
        guard nextIndex < addresses.count else {
            return pending.isEmpty ? failed(.cannotConnect(errno: lastErrno), at: now) : .none
        }
        let index = nextIndex
        nextIndex += 1
        pending.insert(index)
        log.append(HTTPClientTimings.ConnectAttempt(address: addresses[index].description, startedAt: now))
        return .start(addresses[index], index: index)
    }

    private mutating func won(_ index: Int, at now: MonotonicTime) -> Action {
        state = .connected(index: index)
        end(index, .connected, at: now)
        endPending(.abandoned, at: now)
        return .connected(index: index)
    }

    /// Attempt `index` (pending, while connecting) failed: the next address, or the failure when none is left.
    private mutating func lost(_ index: Int, errno: Int32?, at now: MonotonicTime) -> Action {
        pending.remove(index)
        end(index, .failed(errno: errno), at: now)
        lastErrno = errno ?? lastErrno
        return startNext(at: now)
    }

    private mutating func failed(_ failure: ExchangeFailure, at now: MonotonicTime) -> Action {
        state = .ended
        endPending(.timedOut, at: now)
        return .fail(failure)
    }

    /// `list` with its address families taking turns, each family's addresses in the order they
    /// came and the first address's family first (RFC 8305 §4, a "First Address Family Count" of
    /// one): `[v6a, v6b, v4a]` is tried as `[v6a, v4a, v6b]`.
    static func interleavingFamilies(_ list: [SocketAddress]) -> [SocketAddress] {
        guard let first = list.first else { return list }
        let preferred = list.filter { $0.family == first.family }
        let others = list.filter { $0.family != first.family }
        guard !others.isEmpty else { return list }
        var result: [SocketAddress] = []
        result.reserveCapacity(list.count)
        for index in 0..<max(preferred.count, others.count) {
            if index < preferred.count { result.append(preferred[index]) }
            if index < others.count { result.append(others[index]) }
        }
        return result
    }

    /// Logs attempt `index`'s end.
    private mutating func end(_ index: Int, _ outcome: HTTPClientTimings.ConnectAttempt.Outcome, at now: MonotonicTime) {
        guard log.indices.contains(index) else { return }
        log[index].endedAt = now
        log[index].outcome = outcome
    }

    /// Ends every attempt still under way with `outcome` (the driver closes their sockets).
    private mutating func endPending(_ outcome: HTTPClientTimings.ConnectAttempt.Outcome, at now: MonotonicTime) {
        for index in pending.sorted() where log.indices.contains(index) && log[index].outcome == nil {
            end(index, outcome, at: now)
        }
        pending.removeAll()
    }
}
