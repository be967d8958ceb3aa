@testable import HTTPClient
import XCTest

/// `HostPoolMachine`, one host's share of the pool, driven event by event with stand-ins for
/// parked connections and waiting requests: no socket, no loop thread.
final class HostPoolMachineTests: XCTestCase {
    private final class Parked {
        let id: Int
        let home: String
        init(_ id: Int, home: String = "home") {
            self.id = id
            self.home = home
        }
    }
    private struct Waiting {
        let name: String
        var ticket = 0
    }
    private typealias Machine = HostPoolMachine<Parked, Waiting>

    /// Asks for a connection for `name`; says what came of it: "idle N", "queued", "queued, open N".
    private func ask(_ machine: inout Machine, _ name: String, ticket: Int = 0, freshOnly: Bool = false) -> String {
        switch machine.request(Waiting(name: name, ticket: ticket), freshOnly: freshOnly, precedes: { $0.ticket < $1.ticket }) {
        case .idle(let parked): "idle \(parked.id)"
        case .queued(nil): "queued"
        case .queued(let open?): "queued, open \(open)"
        }
    }

    private func said(_ handoff: Machine.Handoff) -> String {
        switch handoff {
        case .deliver(let waiter): "to \(waiter.name)"
        case .parked(let parked): "parked \(parked.id)"
        }
    }

    private func release(_ machine: inout Machine, _ id: Int, reusable: Bool) -> String {
        switch machine.released(id, reusable: reusable, park: { Parked(id) }) {
        case .kept(let handoff): said(handoff)
        case .close(nil): "close"
        case .close(let open?): "close, open \(open)"
        }
    }

    /// A request with nothing idle queues and has a connection opened for it; requests beyond the
    /// limit queue without one; the opened connections go to the waiters in order.
    func testConnectionsAreOpenedForTheWaitersUpToTheLimit() {
        var machine = Machine(limit: 2)
        XCTAssertEqual(ask(&machine, "a"), "queued, open 1")
        XCTAssertEqual(ask(&machine, "b"), "queued, open 2")
        XCTAssertEqual(ask(&machine, "c"), "queued", "at the limit")
        XCTAssertEqual(machine.open, 2)
        XCTAssertEqual(machine.connecting, 2)
        XCTAssertEqual(said(machine.connected(2) { Parked(2) }), "to a", "the first connection open goes to the first waiter")
        XCTAssertEqual(said(machine.connected(1) { Parked(1) }), "to b")
        XCTAssertEqual(machine.state(of: 1), .leased)
        XCTAssertEqual(release(&machine, 2, reusable: true), "to c")
        XCTAssertEqual(release(&machine, 1, reusable: true), "parked 1")
        XCTAssertEqual(machine.state(of: 1), .idle(position: 0))
        XCTAssertEqual(machine.open, 2)
    }

    /// A waiter that leaves does not stop the connect it caused: the connection goes to the next
    /// waiter, or is parked when none waits.
    func testAConnectOutlivesTheRequestThatCausedIt() {
        var machine = Machine(limit: 1)
        XCTAssertEqual(ask(&machine, "first"), "queued, open 1")
        XCTAssertTrue(machine.waiterLeft { $0.name == "first" })
        XCTAssertFalse(machine.waiterLeft { $0.name == "first" }, "gone already")
        XCTAssertEqual(machine.state(of: 1), .connecting, "still being opened")
        XCTAssertEqual(ask(&machine, "second"), "queued", "the connect under way will serve it")
        XCTAssertEqual(said(machine.connected(1) { Parked(1) }), "to second")

        var nobody = Machine(limit: 1)
        XCTAssertEqual(ask(&nobody, "gone"), "queued, open 1")
        _ = nobody.waiterLeft { _ in true }
        XCTAssertEqual(said(nobody.connected(1) { Parked(1) }), "parked 1", "parked when nobody waits")
        XCTAssertEqual(ask(&nobody, "later"), "idle 1")
    }

    /// A failed connect fails the first waiter only; the next one gets a connect of its own.
    func testAFailedConnectFailsTheFirstWaiterAndOpensAnotherForTheRest() {
        var machine = Machine(limit: 1)
        XCTAssertEqual(ask(&machine, "a"), "queued, open 1")
        XCTAssertEqual(ask(&machine, "b"), "queued")
        let failed = machine.connectFailed(1)
        XCTAssertEqual(failed.fail?.name, "a")
        XCTAssertEqual(failed.open, 2, "b gets an attempt of its own")
        let last = machine.connectFailed(2)
        XCTAssertEqual(last.fail?.name, "b")
        XCTAssertNil(last.open)
        XCTAssertEqual(machine.open, 0)
    }

    /// Idle connections are leased newest first, preferring the asker's loop; a request retried
    /// after a stale connection refuses them and has a new one opened.
    func testIdleConnectionsAreLeasedNewestFirstUnlessARequestWantsAFreshOne() {
        var machine = Machine(limit: 3)
        for name in ["a", "b"] { _ = ask(&machine, name) }
        _ = machine.connected(1) { Parked(1) }
        _ = machine.connected(2) { Parked(2) }
        XCTAssertEqual(release(&machine, 1, reusable: true), "parked 1")
        XCTAssertEqual(release(&machine, 2, reusable: true), "parked 2")
        XCTAssertEqual(ask(&machine, "fresh", freshOnly: true), "queued, open 3")
        switch machine.request(Waiting(name: "c"), preferring: { $0.id == 1 }) {
        case .idle(let parked): XCTAssertEqual(parked.id, 1, "the one the asker prefers")
        case .queued: XCTFail("an idle connection waits")
        }
        XCTAssertEqual(ask(&machine, "d"), "idle 2")
        XCTAssertEqual(said(machine.connected(3) { Parked(3) }), "to fresh")
    }

    /// A kept connection released a moment ago goes past a request that refuses kept connections
    /// (retried after a stale one) to the next that takes them; with only such requests waiting
    /// and no slot left for theirs, it is closed and a new one opened in its slot.
    func testAKeptConnectionIsNeverHandedToARequestThatRefusesKeptOnes() {
        var machine = Machine(limit: 2)
        for name in ["a", "b"] { _ = ask(&machine, name) }
        _ = machine.connected(1) { Parked(1) }
        _ = machine.connected(2) { Parked(2) }
        XCTAssertEqual(ask(&machine, "retried", ticket: 0, freshOnly: true), "queued", "at the limit")
        XCTAssertEqual(ask(&machine, "later", ticket: 1), "queued")
        XCTAssertEqual(release(&machine, 1, reusable: true), "to later", "past the retried request")
        XCTAssertEqual(release(&machine, 2, reusable: true), "close, open 3", "its slot opens a new one")
        XCTAssertEqual(said(machine.connected(3) { Parked(3) }), "to retried", "a new connection goes to the first in line")
        XCTAssertEqual(release(&machine, 1, reusable: true), "parked 1", "nobody waits")
    }

    /// A connection that cannot be kept is closed and its slot opens one for the waiters.
    func testAConnectionThatCannotBeKeptFreesItsSlotForTheWaiters() {
        var machine = Machine(limit: 1)
        _ = ask(&machine, "a")
        _ = machine.connected(1) { Parked(1) }
        XCTAssertEqual(ask(&machine, "b"), "queued")
        XCTAssertEqual(release(&machine, 1, reusable: false), "close, open 2")
        XCTAssertNil(machine.state(of: 1))
        XCTAssertEqual(machine.state(of: 2), .connecting)
        _ = machine.connected(2) { Parked(2) }
        XCTAssertEqual(release(&machine, 2, reusable: false), "close", "nobody waits: the slot is freed")
        XCTAssertEqual(machine.open, 0)
    }

    /// Waiters are served in ticket order, whatever order they arrive in.
    func testWaitersAreServedInTicketOrder() {
        var machine = Machine(limit: 1)
        _ = ask(&machine, "holder", ticket: 1)
        _ = machine.connected(1) { Parked(1) }
        _ = ask(&machine, "late", ticket: 5)
        _ = ask(&machine, "early", ticket: 3)
        XCTAssertEqual(release(&machine, 1, reusable: true), "to early")
        XCTAssertEqual(release(&machine, 1, reusable: true), "to late")
    }

    /// An idle connection its server closed is dropped once; one a request took first is not.
    func testAnIdleConnectionTheServerClosedIsDroppedOnce() {
        var machine = Machine(limit: 2)
        _ = ask(&machine, "a")
        _ = machine.connected(1) { Parked(1) }
        _ = release(&machine, 1, reusable: true)
        XCTAssertEqual(machine.idleClosed(1).dropped, true)
        XCTAssertEqual(machine.idleClosed(1).dropped, false, "dropped already")
        XCTAssertEqual(machine.open, 0)

        _ = ask(&machine, "b")
        _ = machine.connected(2) { Parked(2) }
        _ = release(&machine, 2, reusable: true)
        XCTAssertEqual(ask(&machine, "c"), "idle 2")
        XCTAssertEqual(machine.idleClosed(2).dropped, false, "taken before its watcher fired")
        XCTAssertEqual(machine.state(of: 2), .leased)
    }

    /// Closing the idle connections frees their slots only, and opens connections for waiters
    /// that refused them.
    func testClosingIdleConnectionsFreesOnlyTheirSlots() {
        var machine = Machine(limit: 2)
        for name in ["a", "b"] { _ = ask(&machine, name) }
        _ = machine.connected(1) { Parked(1) }
        _ = machine.connected(2) { Parked(2) }
        _ = release(&machine, 1, reusable: true)
        XCTAssertEqual(ask(&machine, "fresh", freshOnly: true), "queued", "at the limit")
        let closed = machine.closeIdle()
        XCTAssertEqual(closed.closed.map(\.id), [1])
        XCTAssertEqual(closed.open, [3], "the freed slot opens a connection for the waiter")
        XCTAssertEqual(machine.state(of: 2), .leased, "the connection in use keeps its slot")
        XCTAssertEqual(machine.open, 2)
    }
}
