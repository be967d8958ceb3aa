import Foundation
import Reactive
import XCTest

/// A test case that checks `Resources.total` is back at its starting value after each test.
///
/// Work finishing on other threads gets a short grace period to release its sinks; a
/// subscription that is never released still fails the test.
open class LeakCheckingTestCase: XCTestCase {
    /// Read in `setUp`; nil when the test was skipped before it (a throwing `setUpWithError`).
    private var resourcesAtStart: Int32?

    open override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
    }

    open override func tearDown() {
        if let resourcesAtStart {
            let deadline = Date().addingTimeInterval(5)
            while Resources.total != resourcesAtStart && Date() < deadline {
                RunLoop.current.run(until: Date().addingTimeInterval(0.01))
            }
            XCTAssertEqual(Resources.total, resourcesAtStart, "live subscriptions leaked by this test")
        }
        super.tearDown()
    }
}
