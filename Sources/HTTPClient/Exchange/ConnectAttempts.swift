import Foundation
import EventLoopIO

/// Opening one connection to a host, as a value: a literal address is used at once, a name is
/// looked up off the loop, then each address is tried in the system's order until one connects,
/// all within one connect timer. It takes what happened (the literal read or not, the lookup's
/// result, a connect refused at once or later, the timer, the exchange ending) and returns what
/// to do; `SocketExchange` performs the actions and keeps the sockets. A new value per connect.
struct ConnectAttempts: Sendable {
    enum State: Equatable, Sendable {
        /// Nothing started yet.
        case idle
        /// The name is being looked up off the loop.
        case resolving
        /// A connect to `addresses[index]` is being started or is under way.
        case connecting(index: Int)
        case connected
        /// Failed, or given up by the exchange: later outcomes are ignored.
        case ended
    }

    /// Why no connection was opened; the driver adds the host, the port and the timeout's length.
    enum Failure: Equatable, Sendable {
        /// The lookup failed with `getaddrinfo`'s `EAI_*` `code`.
        case cannotFindHost(code: Int32)
        /// Every address failed (`errno` is the last one's), or the lookup failed with a system error.
        case cannotConnect(errno: Int32)
        /// The connect timer fired before any address connected.
        case timedOut
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Looks the name up off the loop (it may block); the result goes to `resolved`.
        case resolve
        /// Closes the socket of a failed attempt, if any, and starts connecting a new one to
        /// `address`; the outcome goes to `started` or `startFailed`.
        case startConnect(SocketAddress)
        /// Watches the socket for room to write: the kernel finishes the connect, and its outcome
        /// goes to `connectFinished`.
        case awaitConnect
        /// The socket is connected: the connect timer is cancelled and the request goes out.
        case connected
        /// Reports the failure (the exchange gives its slot back, closing any socket).
        case fail(Failure)
    }

    private(set) var state = State.idle
    private(set) var addresses: [SocketAddress] = []
    /// The errno of the last address that failed; reported when none is left.
    private(set) var lastErrno: Int32 = ECONNREFUSED

    /// Starts with the host read as a numeric address (`literal`), or nil when it is a name.
    mutating func begin(literal: [SocketAddress]?) -> Action {
        guard let literal else {
            state = .resolving
            return .resolve
        }
        return tryAddresses(literal)
    }

    /// The lookup finished (`cancelled` when the exchange ended meanwhile on another thread).
    mutating func resolved(_ result: Result<[SocketAddress], SocketError>, cancelled: Bool = false) -> Action? {
        guard state == .resolving else { return nil }
        guard !cancelled else {
            state = .ended
            return nil
        }
        switch result {
        case .success(let list):
            return tryAddresses(list)
        case .failure(.addressResolution(_, let code)):
            return failed(.cannotFindHost(code: code))
        case .failure(let error):
            return failed(.cannotConnect(errno: error.systemErrno ?? EHOSTUNREACH))
        }
    }

    /// The connect was started; `inProgress` when the kernel finishes it later.
    mutating func started(inProgress: Bool) -> Action? {
        guard case .connecting = state else { return nil }
        guard inProgress else {
            state = .connected
            return .connected
        }
        return .awaitConnect
    }

    /// Starting the connect failed at once (`errno` when the system gave one): the next address.
    mutating func startFailed(errno: Int32?) -> Action? {
        guard case .connecting(let index) = state else { return nil }
        return next(after: index, errno: errno)
    }

    /// The connect under way finished: `errno` 0 when it connected, else why it failed.
    mutating func connectFinished(errno: Int32) -> Action? {
        guard case .connecting(let index) = state else { return nil }
        guard errno != 0 else {
            state = .connected
            return .connected
        }
        return next(after: index, errno: errno)
    }

    /// The connect timer fired: resolving or connecting, the exchange fails.
    mutating func timerFired() -> Action? {
        switch state {
        case .resolving, .connecting: failed(.timedOut)
        case .idle, .connected, .ended: nil
        }
    }

    /// The exchange ended (cancelled, failed, timed out overall): late outcomes are ignored.
    mutating func abandon() {
        state = .ended
    }

    private mutating func tryAddresses(_ list: [SocketAddress]) -> Action {
        addresses = list
        guard let first = list.first else { return failed(.cannotConnect(errno: lastErrno)) }
        state = .connecting(index: 0)
        return .startConnect(first)
    }

    private mutating func next(after index: Int, errno: Int32?) -> Action {
        lastErrno = errno ?? lastErrno
        guard index + 1 < addresses.count else { return failed(.cannotConnect(errno: lastErrno)) }
        state = .connecting(index: index + 1)
        return .startConnect(addresses[index + 1])
    }

    private mutating func failed(_ failure: Failure) -> Action {
        state = .ended
        return .fail(failure)
    }
}
