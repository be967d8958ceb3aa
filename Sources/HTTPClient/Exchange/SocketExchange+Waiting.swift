import EventLoopIO

/// Waiting for a connection: asking the pool, a lease arriving (on this loop or another, where
/// the request goes), and a lease given back unused.
extension SocketExchange {
    /// Asks the pool for a connection to `key` (a new one when `freshOnly`), waiting at most the
    /// connect timeout when `armWaitTimer`.
    func acquire(_ key: ConnectionPoolKey, armWaitTimer: Bool, freshOnly: Bool) {
        if armWaitTimer { armConnectTimer() }
        var waiter = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: loop) { [self] lease in leaseArrived(lease) }
        // The first hop queues in the order the caller sent it, and keeps its place for a
        // reconnect; a redirect's joins the end.
        let place = ticket ?? pool.makeTicket()
        waiter.ticket = place
        ticket = place
        switch pool.acquire(key, waiter: waiter, freshOnly: freshOnly) {
        case .here(let parked)?:
            parked.takenHere()
            leaseArrived(.reused(parked.connection))
        case .elsewhere(let parked)?:
            // The request goes to the connection's loop; the connection stays there.
            let moved = move(to: parked.loop) { [self] in
                parked.takenHere()
                leaseArrived(.reused(parked.connection))
            }
            if !moved { giveBack(parked.connection, takenFrom: parked) }
        case nil:
            break
        }
    }

    /// A lease reached the loop (an `https` connection secured already, by its opener): the
    /// machine says whether to use it, connect anew, give it back, or fail with the connect's
    /// failure.
    func leaseArrived(_ lease: ConnectionLease) {
        loop.assertInLoop()
        if let leased = lease.connection, leased.loop !== loop {
            // The request goes to the connection's loop; the connection stays there.
            if !move(to: leased.loop, then: { [self] in leaseArrived(lease) }) { giveBack(leased, takenFrom: nil) }
            return
        }
        cancelTimer(&connectTimer)
        applyPendingCancel()
        let kind: ExchangeMachine.Lease = switch lease {
        case .connected: .connected
        case .reused: .reused
        case .handedOver: .handedOver
        case .failed(let failure): .failed(failure)
        }
        if let leased = lease.connection {
            connection = leased
            if readBuffer.isEmpty { swap(&readBuffer, &leased.readBuffer) }
            if output.capacity == 0 { swap(&output, &leased.outputBuffer) }
            let reused = if case .connected = lease { false } else { true }
            timings.leased(leased, reused: reused)
            if !reused { timings.moments.secured = leased.securedAt }
        }
        run(machine.leased(kind) {
            lease.connection?.socket.isReadableOrClosed ?? true
        })
    }

    /// Gives a lease that arrived after the exchange ended (or a second one) back to the pool unused.
    func returnLease() {
        guard let kept = connection else { return }
        connection = nil
        pool.release(kept, reusable: true)
    }

    /// Gives back, on its own loop, a connection leased to this exchange on another loop after
    /// `cancel()` (its teardown runs here, where the machine never heard of the lease).
    func giveBack(_ leased: Connection, takenFrom parked: ParkedConnection?) {
        let pool = self.pool
        leased.loop.execute {
            parked?.takenHere()
            pool.release(leased, reusable: true)
        }
    }
}
