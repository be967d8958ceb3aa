import Foundation
import SocketIO

/// Waiting for a connection: asking the pool, being handed a lease (on any loop), and using it.
extension SocketExchange {
    /// Asks the pool for a connection for `request`; its target is the one `start` read, unless a
    /// redirect cleared it.
    func begin() {
        guard !isFinished else { return }
        let parsed: SocketRequestTarget
        do throws(HTTPClientError) {
            if let target {
                parsed = target
            } else {
                parsed = try SocketRequestTarget(url: request.url)
            }
        } catch {
            report(.failure(HTTPClientFailure(error)))
            return
        }
        target = parsed
        wait(for: parsed)
    }

    /// Queues the exchange in the pool for a connection to `target`; the lease reaches `leased`
    /// on the exchange's loop. Called on the loop, or by `start` (`fromCaller`) before the
    /// exchange is shared; then the state it sets is written before any task of the exchange
    /// reaches the loop (the overall timer's goes ahead of any lease), and nothing of the
    /// exchange is touched on the caller's thread after that.
    ///
    /// Waiting from the caller without an overall deadline, the exchange has nothing on its loop,
    /// so it is queued unbound: a connection released on another loop brings the exchange there
    /// (`adopt`) instead of moving to the exchange's loop. Handing connections across loops
    /// moved about one in eight of them at 256 requests in flight on 32 connections, and the
    /// loops' shares drifted apart; unbound waiters are also served in strict arrival order.
    func wait(for target: SocketRequestTarget, fromCaller: Bool = false) {
        phase = .waiting
        let loop = self.loop
        let id = pool.makeWaiterID()
        waitingID = id
        // From `begin` the overall timer (if any) is armed already and the exchange stays bound.
        let unbound = fromCaller && configuration.overallDeadline == nil
        if fromCaller && !unbound {
            loop.execute { [self] in armOverallTimer() }
        }
        let key = target.key
        pool.acquire(key, id: id, on: unbound ? nil : loop) { [self, pool] lease, releasingLoop in
            guard unbound, let releasingLoop, releasingLoop !== loop else {
                loop.execute { self.leased(lease) }
                return
            }
            guard adopt(releasingLoop) else {
                // Cancelled while waiting: its teardown runs on its old loop and touches nothing
                // here, so the lease goes back without the exchange (as a task: this runs inside
                // the pool's `release`).
                releasingLoop.execute { pool.returnUnused(lease, for: key, on: releasingLoop) }
                return
            }
            releasingLoop.execute { self.leased(lease) }
        }
    }

    /// Moves a waiting exchange, which holds nothing on any loop, to `newLoop`; false when it was
    /// cancelled first (its teardown then runs on the old loop).
    func adopt(_ newLoop: EventLoop) -> Bool {
        control.withLock { control in
            guard !control.finished else { return false }
            loop = newLoop
            return true
        }
    }

    func leased(_ lease: ConnectionLease) {
        waitingID = nil
        guard let key = target?.key else { return }
        guard phase == .waiting, !isFinished else {
            pool.returnUnused(lease, for: key, on: loop)
            return
        }
        holdsSlot = true
        attempt = 0
        switch lease {
        case .fresh:
            connect()
        case .handedOver(let kept) where SocketRequestEncoding.isIdempotent(method):
            // Its last answer was read a moment ago, so it is not polled for a close first: if the
            // server closed it anyway, `retryOnFreshConnection` sends the request again.
            send(on: kept)
        case .reused(let kept) where !kept.isReadableOrClosed, .handedOver(let kept) where !kept.isReadableOrClosed:
            send(on: kept)
        case .reused(let stale), .handedOver(let stale):
            loop.deregister(stale)
            stale.close()
            connect()
        }
    }

    func send(on kept: TCPSocket) {
        socket = kept
        reused = true
        sendRequest()
    }
}
