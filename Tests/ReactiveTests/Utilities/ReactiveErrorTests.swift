import Reactive
import TestSupport
import XCTest

final class ReactiveErrorTests: LeakCheckingTestCase {
    func testUnknownIsItsOwnCaseWithRxSwiftsDescription() {
        XCTAssertEqual(ReactiveError.unknown.description, "Unknown error occurred.")
        XCTAssertNotEqual(ReactiveError.unknown, .timeout)
        let failed = Recorder<String>()
        Observable<Int>.error(ReactiveError.unknown)
            .subscribe(onError: { failed.append(($0 as? ReactiveError)?.description ?? "other") })
        XCTAssertEqual(failed.values, ["Unknown error occurred."])
    }
}
