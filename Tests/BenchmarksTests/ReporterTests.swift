@testable import Benchmarks
import Foundation
import XCTest

final class ReporterTests: XCTestCase {
    func testJSONLineCarriesNameUnitValueBaselineAndRatio() throws {
        let line = Reporter.jsonLine(BenchmarkResult(
            name: "a.map-filter-map", unit: "ns/op", value: 21.3, baseline: 6.1, baselineName: "a \"quoted\" loop"))
        XCTAssertFalse(line.contains("\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["name"] as? String, "a.map-filter-map")
        XCTAssertEqual(object["unit"] as? String, "ns/op")
        XCTAssertEqual(try XCTUnwrap(object["value"] as? Double), 21.3, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(object["baseline"] as? Double), 6.1, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(object["ratio"] as? Double), 21.3 / 6.1, accuracy: 0.01)
        XCTAssertEqual(object["baseline_is"] as? String, "a \"quoted\" loop")
    }

    func testNonFiniteFiguresBecomeNull() throws {
        let line = Reporter.jsonLine(BenchmarkResult(
            name: "h.sequential", unit: "req/s", value: 10, baseline: 0, baselineName: "bare"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertTrue(object["ratio"] is NSNull)
    }
}
