import Dispatch
@testable import FeedServer
import XCTest

/// The server's request counts, kept in shards: what connections on many loops count at once
/// adds up, in all and per path.
final class RequestTallyTests: XCTestCase {
    func testCountsFromManyConnectionsAtOnceAddUp() {
        let tally = RequestTally(shards: 4)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<1_000 {
                // connections 3...10: two threads per shard
                tally.record(path: index % 4 == 0 ? "/images/\(index % 3).jpg" : "/echo", connection: 3 + thread)
            }
        }
        XCTAssertEqual(tally.total, 8_000)
        XCTAssertEqual(tally.count(path: "/echo"), 6_000)
        XCTAssertEqual(tally.count(path: "/images/0.jpg") + tally.count(path: "/images/1.jpg") + tally.count(path: "/images/2.jpg"), 2_000)
        XCTAssertEqual(tally.count { $0.hasPrefix("/images/") }, 2_000)
        XCTAssertEqual(tally.count(path: "/missing"), 0)
    }

    func testOneShardAndOddConnectionNumbersStillCount() {
        let tally = RequestTally(shards: 0)
        tally.record(path: "/a", connection: -1)
        tally.record(path: "/a", connection: Int.min)
        tally.record(path: "/a", connection: Int.max)
        XCTAssertEqual(tally.total, 3)
        XCTAssertEqual(tally.count(path: "/a"), 3)
    }
}
