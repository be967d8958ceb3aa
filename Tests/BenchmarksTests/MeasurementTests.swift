@testable import Benchmarks
import XCTest

final class MeasurementTests: XCTestCase {
    func testMedianOfOddAndEvenCounts() {
        XCTAssertEqual(Measurement.median([5, 1, 3]), 3)
        XCTAssertEqual(Measurement.median([4, 1, 3, 2]), 2.5)
        XCTAssertTrue(Measurement.median([]).isNaN)
    }

    func testPercentileIsNearestRank() {
        let samples = (1...100).map(Double.init)
        XCTAssertEqual(Measurement.percentile(samples, 0.50), 50)
        XCTAssertEqual(Measurement.percentile(samples, 0.99), 99)
        XCTAssertEqual(Measurement.percentile([7], 0.99), 7)
    }

    func testCompareRunsWarmupsAndEveryRunOfBothSides() {
        let counter = Tally()
        let baselineCounter = Tally()
        let measurement = Measurement(runs: 5, warmups: 2)
        let (ours, baseline) = measurement.compare(operations: 10, ours: {
            counter.add(1)
            return counter.value
        }, baseline: {
            baselineCounter.add(1)
            return baselineCounter.value
        })
        XCTAssertEqual(counter.value, 7)
        XCTAssertEqual(baselineCounter.value, 7)
        XCTAssertGreaterThanOrEqual(ours, 0)
        XCTAssertGreaterThanOrEqual(baseline, 0)
    }

    func testMonotonicClockNeverGoesBack() {
        var last = MonotonicClock.now()
        for _ in 0..<1_000 {
            let now = MonotonicClock.now()
            XCTAssertGreaterThanOrEqual(now, last)
            last = now
        }
    }
}
