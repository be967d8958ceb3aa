import Foundation
import EventLoopIO

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
        machine.waiting()
        let loop = self.loop
        let id = pool.makeWaiterID()
        waitingID = id
        // From `begin` the overall timer (if any) is armed already and the exchange stays bound.
        let unbound = fromCaller && configuration.overallDeadline == nil
        if fromCaller && !unbound {
            loop.execute { [self] in armOverallTimer() }
        }
        let key = target.key
        pool.acquire(key, id: id) { [self, pool] lease, releasingLoop in
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
        let (kind, kept): (ExchangeStateMachine.Lease, TCPSocket?) = switch lease {
        case .fresh: (.fresh, nil)
        case .reused(let kept): (.reused, kept)
        case .handedOver(let kept): (.handedOver, kept)
        }
        // One handed over to an idempotent request is not polled: if the server closed it
        // anyway, the retry on a fresh connection sends the request again.
        let action = machine.leased(kind, cancelled: isFinished, isClosed: { kept?.isReadableOrClosed ?? true })
        switch action {
        case .returnLease:
            pool.returnUnused(lease, for: key, on: loop)
        case .send:
            socket = kept
            sendRequest()
        case .closeStaleAndConnect:
            if let kept {
                loop.deregister(kept)
                kept.close()
            }
            connect()
        case .connect:
            connect()
        default:
            assertionFailure("a lease is returned, used or replaced, not \(action)")
        }
    }
}
