@testable import HTTPClient
import XCTest

/// `HostSlots`, one host's share of the pool, driven event by event with stand-ins for
/// connections and sockets: no socket, no loop thread.
final class HostSlotsTests: XCTestCase {
    private final class Parked {
        let socket: String
        init(_ socket: String) { self.socket = socket }
    }
    private struct Waiting {
        let name: String
    }
    private typealias Slots = HostSlots<Parked, String, Waiting>

    /// Releases `socket` and says what came of it: "to NAME (socket|slot)", "parked", or
    /// "closed SOCKET" (nothing when the slot is freed).
    private func release(_ slots: inout Slots, _ socket: String?, reusable: Bool) -> [String] {
        let released = slots.release(socket, reusable: reusable) { Parked($0) }
        var said: [String] = []
        if let (waiter, handoff) = released.next {
            switch handoff {
            case .handedOver(let kept): said.append("to \(waiter.name) \(kept)")
            case .fresh: said.append("to \(waiter.name) slot")
            }
        }
        if let parked = released.parked { said.append("parked \(parked.socket)") }
        if let closed = released.close { said.append("closed \(closed)") }
        return said
    }

    private func granted(_ grant: Slots.Grant?) -> String {
        switch grant {
        case .idle(let parked)?: "idle \(parked.socket)"
        case .fresh?: "fresh"
        case nil: "none"
        }
    }

    func testSlotsAreGrantedUpToTheLimitThenRequestsWait() {
        var slots = Slots()
        XCTAssertEqual(granted(slots.lease(limit: 2, orQueue: Waiting(name: "a"))), "fresh")
        XCTAssertEqual(granted(slots.lease(limit: 2, orQueue: Waiting(name: "b"))), "fresh")
        XCTAssertEqual(granted(slots.lease(limit: 2, orQueue: Waiting(name: "c"))), "none")
        XCTAssertEqual(granted(slots.lease(limit: 2, orQueue: nil)), "none", "asked without waiting")
        XCTAssertEqual(slots.open, 2)
        XCTAssertEqual(slots.waiters.count, 1, "only the one that asked to wait is queued")
        XCTAssertEqual(slots.waiters.first?.name, "c")
    }

    func testAKeptConnectionNobodyWaitsForIsParkedAndLeasedNewestFirst() {
        var slots = Slots()
        _ = slots.lease(limit: 2, orQueue: nil)
        _ = slots.lease(limit: 2, orQueue: nil)
        XCTAssertEqual(release(&slots, "s1", reusable: true), ["parked s1"])
        XCTAssertEqual(release(&slots, "s2", reusable: true), ["parked s2"])
        XCTAssertEqual(slots.open, 2, "a parked connection keeps its slot")
        XCTAssertEqual(granted(slots.lease(limit: 2, orQueue: nil)), "idle s2")
        XCTAssertEqual(granted(slots.lease(limit: 2, orQueue: nil)), "idle s1")
        XCTAssertEqual(granted(slots.lease(limit: 2, orQueue: nil)), "none")
    }

    func testAKeptConnectionGoesToTheFirstWaiter() {
        var slots = Slots()
        _ = slots.lease(limit: 1, orQueue: nil)
        for name in ["a", "b"] { _ = slots.lease(limit: 1, orQueue: Waiting(name: name)) }
        XCTAssertEqual(release(&slots, "s", reusable: true), ["to a s"])
        XCTAssertEqual(release(&slots, "s", reusable: true), ["to b s"])
        XCTAssertEqual(release(&slots, "s", reusable: true), ["parked s"], "nobody waits")
        XCTAssertTrue(slots.waiters.isEmpty)
        XCTAssertEqual(slots.open, 1)
    }

    func testAConnectionThatCannotBeKeptIsClosedAndItsSlotGoesToTheNextWaiter() {
        var slots = Slots()
        _ = slots.lease(limit: 1, orQueue: nil)
        _ = slots.lease(limit: 1, orQueue: Waiting(name: "a"))
        XCTAssertEqual(release(&slots, "s", reusable: false), ["to a slot", "closed s"])
        XCTAssertEqual(slots.open, 1, "the slot passed on")
        XCTAssertEqual(release(&slots, "t", reusable: false), ["closed t"])
        XCTAssertEqual(slots.open, 0, "nobody waits: the slot is freed")
        _ = slots.lease(limit: 1, orQueue: nil)
        XCTAssertEqual(release(&slots, nil, reusable: false), [], "a slot that never connected")
        XCTAssertEqual(slots.open, 0)
    }

    func testAnIdleConnectionTheServerClosedIsDiscardedOnce() {
        var slots = Slots()
        _ = slots.lease(limit: 2, orQueue: nil)
        let released = slots.release("s", reusable: true) { Parked($0) }
        guard let parked = released.parked else { return XCTFail("a kept connection nobody waits for is parked") }
        XCTAssertTrue(slots.discard(parked))
        XCTAssertEqual(slots.open, 0)
        XCTAssertTrue(slots.idle.isEmpty)
        XCTAssertFalse(slots.discard(parked), "already gone (taken or discarded)")
        XCTAssertEqual(slots.open, 0)
    }

    func testTakingTheIdleConnectionsFreesOnlyTheirSlots() {
        var slots = Slots()
        for _ in 0..<3 { _ = slots.lease(limit: 3, orQueue: nil) }
        _ = release(&slots, "s1", reusable: true)
        _ = release(&slots, "s2", reusable: true)
        XCTAssertEqual(slots.takeIdle().map(\.socket), ["s1", "s2"])
        XCTAssertEqual(slots.open, 1, "the connection in use keeps its slot")
        XCTAssertTrue(slots.idle.isEmpty)
        XCTAssertEqual(slots.takeIdle().count, 0)
    }
}
