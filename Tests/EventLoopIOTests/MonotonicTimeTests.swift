import EventLoopIO
import XCTest

/// The package's moments against `ContinuousClock`'s: the same instants both ways, the same
/// arithmetic, and no overflow for deadlines far away.
final class MonotonicTimeTests: XCTestCase {
    func testAnInstantComesBackTheSameToTheNanosecond() {
        let instant = ContinuousClock.now
        for offset: Duration in [.zero, .nanoseconds(1), .milliseconds(-250), .seconds(3_600), .nanoseconds(-7)] {
            XCTAssertEqual(MonotonicTime(instant + offset).instant, instant + offset, "offset \(offset)")
        }
    }

    func testNowFollowsTheContinuousClock() {
        let before = ContinuousClock.now
        let moment = MonotonicTime.now
        let after = ContinuousClock.now
        XCTAssertLessThanOrEqual(before, moment.instant)
        XCTAssertLessThanOrEqual(moment.instant, after)
    }

    func testArithmeticAndOrderMatchTheInstants() {
        let start = ContinuousClock.now
        let moment = MonotonicTime(start)
        let later = moment + .milliseconds(1_500)
        XCTAssertEqual(later.instant, start + .milliseconds(1_500))
        XCTAssertEqual(later - moment, .milliseconds(1_500))
        XCTAssertEqual(moment - later, .milliseconds(-1_500))
        XCTAssertLessThan(moment, later)
        XCTAssertEqual(later.nanoseconds - moment.nanoseconds, 1_500_000_000)
    }

    func testDeadlinesFarAwayAreClampedInsteadOfOverflowing() {
        let moment = MonotonicTime.now
        let far = moment + .seconds(Int64.max)
        let past = moment + .seconds(Int64.min)
        XCTAssertEqual(far.nanoseconds, MonotonicTime.limit)
        XCTAssertEqual(past.nanoseconds, moment.nanoseconds - MonotonicTime.limit, "the duration clamped, the sum kept")
        XCTAssertEqual((past + .seconds(Int64.min)).nanoseconds, -MonotonicTime.limit)
        XCTAssertLessThan(past, moment)
        XCTAssertLessThan(moment, far)
        XCTAssertEqual(far + .seconds(Int64.max), far, "a moment at the limit stays there")
        XCTAssertEqual(MonotonicTime(far.instant + .seconds(1_000_000_000_000)), far, "an instant beyond the limit is clamped")
    }
}
