@testable import HTTPClient
import XCTest

/// The pool's queue of waiting requests: arrival order, taking from near the front, and nothing
/// kept alive by a slot once its element was taken.
final class WaiterQueueTests: XCTestCase {
    private final class Token {
        let number: Int
        let onDeinit: () -> Void
        init(_ number: Int, onDeinit: @escaping () -> Void = {}) {
            self.number = number
            self.onDeinit = onDeinit
        }
        deinit { onDeinit() }
    }

    func testElementsLeaveInArrivalOrderAcrossCompactions() {
        var queue = WaiterQueue<Int>()
        var expected = 0
        // Interleaved, so the front moves past the compaction threshold many times with elements left.
        for round in 0..<50 {
            for value in (round * 10)..<(round * 10 + 10) { queue.append(value) }
            for _ in 0..<7 {
                XCTAssertEqual(queue.removeFirst(), expected)
                expected += 1
            }
        }
        XCTAssertEqual(queue.count, 150)
        while let value = queue.removeFirst() {
            XCTAssertEqual(value, expected)
            expected += 1
        }
        XCTAssertEqual(expected, 500)
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.first)
    }

    func testTakingAnElementNearTheFrontKeepsTheOthersInOrder() {
        var queue = WaiterQueue<Int>()
        for value in 0..<10 { queue.append(value) }
        XCTAssertEqual(queue.firstIndex { $0 % 3 == 2 }, 2)
        XCTAssertEqual(queue.remove(at: 2), 2)
        XCTAssertNil(queue.firstIndex { $0 == 11 }, "not there")
        XCTAssertEqual(queue.firstIndex { $0 == 9 }, 8)
        XCTAssertEqual(queue.remove(at: 8), 9, "the last one")
        XCTAssertNil(queue.remove(at: 8), "past the end")
        var rest: [Int] = []
        while let value = queue.removeFirst() { rest.append(value) }
        XCTAssertEqual(rest, [0, 1, 3, 4, 5, 6, 7, 8])
    }

    func testATakenElementIsReleasedAtOnce() {
        var released: [Int] = []
        var queue = WaiterQueue<Token>()
        for number in 0..<4 { queue.append(Token(number) { released.append(number) }) }
        XCTAssertEqual(queue.remove(at: 2)?.number, 2)
        XCTAssertEqual(released, [2])
        XCTAssertEqual(queue.removeFirst()?.number, 0)
        XCTAssertEqual(released, [2, 0], "the spent slot at the front holds nothing")
        XCTAssertEqual(queue.count, 2)
    }
}
