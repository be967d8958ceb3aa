import EventLoopIO
import XCTest

/// The channel's decisions without sockets: what the loop watches, the lazily moved timer, the
/// one close.
final class ChannelMachineTests: XCTestCase {
    func testInterestRegistersOnceThenChangesAndUnwatchesWhenNothingWaits() {
        var machine = ChannelMachine()
        XCTAssertEqual(machine.interest(reading: false, pending: false), .unchanged, "nothing to watch, nothing registered")
        XCTAssertEqual(machine.interest(reading: true, pending: false), .register(readable: true, writable: false))
        XCTAssertEqual(machine.interest(reading: false, pending: true), .change(readable: false, writable: true),
                       "backpressure: not read while the output waits for room")
        XCTAssertFalse(machine.reading)
        XCTAssertEqual(machine.interest(reading: false, pending: false), .deregister)
        XCTAssertEqual(machine.interest(reading: false, pending: false), .unchanged)
        XCTAssertEqual(machine.interest(reading: true, pending: true), .register(readable: true, writable: true))
        machine.registrationRefused()
        XCTAssertEqual(machine.interest(reading: true, pending: false), .register(readable: true, writable: false),
                       "a refused registration is tried again, not changed")
    }

    func testAChannelBetweenOwnersIsWatchedForNothingEvenWithBytesQueued() {
        var machine = ChannelMachine()
        XCTAssertEqual(machine.ownerChanged(pending: false), .unchanged, "nothing registered: nothing to move")
        XCTAssertEqual(machine.unwatch(), .unchanged, "nothing registered")
        XCTAssertEqual(machine.interest(reading: true, pending: true), .register(readable: true, writable: true))
        XCTAssertEqual(machine.ownerChanged(pending: true), .register(readable: true, writable: true),
                       "registered again for the new owner, watched for what it was")
        XCTAssertEqual(machine.unwatch(), .deregister, "bytes queued, but no owner to hear the room for them")
        XCTAssertFalse(machine.reading)
        XCTAssertEqual(machine.interest(reading: true, pending: true), .register(readable: true, writable: true),
                       "the next owner watches it again, for room too")
    }

    func testAnEarlierTimerIsKeptAndArmsItselfAgainForALaterDeadline() {
        var machine = ChannelMachine()
        let start = MonotonicTime.now
        XCTAssertEqual(machine.deadline(nil), .keep, "no deadline, no timer")
        XCTAssertEqual(machine.deadline(start + .seconds(5)), .arm(start + .seconds(5)))
        XCTAssertEqual(machine.deadline(start + .seconds(8)), .keep, "the armed timer fires first")
        XCTAssertEqual(machine.timerFired(now: start + .seconds(5)), .rearm(start + .seconds(8)))
        XCTAssertEqual(machine.deadline(start + .seconds(6)), .arm(start + .seconds(6)), "an earlier deadline arms earlier")
        XCTAssertEqual(machine.timerFired(now: start + .seconds(6)), .expired)
        XCTAssertEqual(machine.deadline(start + .seconds(9)), .arm(start + .seconds(9)), "the expired timer is gone")
        XCTAssertEqual(machine.deadline(nil), .cancel)
        XCTAssertEqual(machine.deadline(nil), .keep)
    }

    func testClosingTakesTheTimerAndRegistrationOnceAndShutsOutput() {
        var machine = ChannelMachine()
        XCTAssertTrue(machine.acceptsOutput)
        _ = machine.interest(reading: true, pending: false)
        _ = machine.deadline(.now + .seconds(1))
        machine.writeShut()
        XCTAssertFalse(machine.acceptsOutput, "nothing is queued after a lingering close's shutdown")
        XCTAssertFalse(machine.isClosed)
        XCTAssertEqual(machine.close(), .close(cancelTimer: true, deregister: true))
        XCTAssertTrue(machine.isClosed)
        XCTAssertEqual(machine.close(), .alreadyClosed)
        XCTAssertFalse(machine.acceptsOutput)

        var unwatched = ChannelMachine()
        XCTAssertEqual(unwatched.close(), .close(cancelTimer: false, deregister: false))
    }
}
