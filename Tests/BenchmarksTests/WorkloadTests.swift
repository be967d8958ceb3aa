@testable import Benchmarks
import PhotoFeed
import XCTest

final class WorkloadTests: XCTestCase {
    func testPlainTimerHeapRunsByTickThenFIFO() {
        var heap = PlainTimerHeap()
        let order = OrderLog()
        heap.push(at: 5) { order.append("5a") }
        heap.push(at: 1) { order.append("1") }
        heap.push(at: 5) { order.append("5b") }
        heap.push(at: 0) { order.append("0") }
        XCTAssertEqual(heap.runAll(), 5)
        XCTAssertEqual(order.entries, ["0", "1", "5a", "5b"])
    }

    /// 1.25% each of deletions, insertions, updates and single-row moves; the changeset is not
    /// move-minimal (see BENCHMARKS.md), so only a lower bound holds for moves.
    func testChangesetWorkloadEditsFivePercentAndApplies() {
        let (old, new) = ChangesetBenchmarks.sections(items: 2_000)
        let changeset = Changeset(from: old, to: new)
        XCTAssertEqual(changeset.insertedItems.count, 25)
        XCTAssertEqual(changeset.deletedItems.count, 25)
        XCTAssertEqual(changeset.updatedItems.count, 25)
        XCTAssertGreaterThanOrEqual(changeset.movedItems.count, 20)
        XCTAssertEqual(changeset.apply(to: old), new)
    }

    func testSanitizeWorkloadFeedIsJSONPWithEscapesAndRepairs() throws {
        let feed = FeedBenchmarks.jsonpFeed(bytes: 200_000)
        XCTAssertGreaterThanOrEqual(feed.count, 150_000)
        XCTAssertTrue(feed.starts(with: Data("jsonFlickrFeed(".utf8)))
        XCTAssertTrue(String(decoding: feed, as: UTF8.self).contains("\\/"))
        let photo = try Photo.decode(feed: feed)
        XCTAssertGreaterThan(photo.items.count, 100)
    }
}

/// Records the order actions ran in; used from the test's thread only.
private final class OrderLog {
    var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}
