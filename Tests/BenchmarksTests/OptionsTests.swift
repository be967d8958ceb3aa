@testable import Benchmarks
import XCTest

final class OptionsTests: XCTestCase {
    func testDefaultsAreFullSizeTableWithSevenRuns() throws {
        let options = try Options.parse([]).get()
        XCTAssertFalse(options.json)
        XCTAssertFalse(options.quick)
        XCTAssertEqual(options.runs, 7)
        XCTAssertEqual(options.size(1_000_000), 1_000_000)
        XCTAssertTrue(options.selects("a.map-filter-map"))
    }

    func testQuickIsATenthNeverZero() throws {
        let options = try Options.parse(["--quick"]).get()
        XCTAssertEqual(options.size(2_000), 200)
        XCTAssertEqual(options.size(5), 1)
    }

    func testFilterSelectsByPrefix() throws {
        let options = try Options.parse(["--json", "--filter", "a.", "--filter", "h.sequential"]).get()
        XCTAssertTrue(options.json)
        XCTAssertTrue(options.selects("a.map-filter-map"))
        XCTAssertFalse(options.selects("a2.range"))
        XCTAssertTrue(options.selects("h.sequential.p99"))
        XCTAssertFalse(options.selects("h.concurrent-32"))
    }

    func testBadArgumentsAreRefused() {
        guard case .failure(.missingValue("--filter")) = Options.parse(["--filter"]) else {
            return XCTFail("a --filter without a value was accepted")
        }
        guard case .failure(.badValue("--runs", "0")) = Options.parse(["--runs", "0"]) else {
            return XCTFail("--runs 0 was accepted")
        }
        guard case .failure(.unknown("--fast")) = Options.parse(["--fast"]) else {
            return XCTFail("an unknown flag was accepted")
        }
    }
}
