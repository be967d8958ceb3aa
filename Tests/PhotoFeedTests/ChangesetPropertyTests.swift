import FeedServer
import PhotoFeed
import TestSupport
import XCTest

final class ChangesetPropertyTests: LeakCheckingTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try skipSingleThreadedComputationUnderThreadSanitizer()
    }

    private func randomSections(_ random: inout SplitMix64) -> [[(link: Int, title: Int)]] {
        (0..<Int(random.next(upperBound: 5))).map { _ in
            (0..<Int(random.next(upperBound: 8))).map { _ in
                (Int(random.next(upperBound: 14)), Int(random.next(upperBound: 3)))
            }
        }
    }

    private func mutated(_ base: [[(link: Int, title: Int)]], _ random: inout SplitMix64) -> [[(link: Int, title: Int)]] {
        var rows = base
        for _ in 0..<Int(random.next(upperBound: 6)) {
            switch random.next(upperBound: 6) {
            case 0:
                rows.insert([], at: Int(random.next(upperBound: UInt64(rows.count + 1))))
            case 1 where !rows.isEmpty:
                rows.remove(at: Int(random.next(upperBound: UInt64(rows.count))))
            default:
                guard !rows.isEmpty else { continue }
                let section = Int(random.next(upperBound: UInt64(rows.count)))
                let position = Int(random.next(upperBound: UInt64(rows[section].count + 1)))
                if rows[section].isEmpty || random.next(upperBound: 2) == 0 {
                    rows[section].insert((Int(random.next(upperBound: 20)), Int(random.next(upperBound: 3))), at: position)
                } else {
                    let victim = min(position, rows[section].count - 1)
                    let row = rows[section].remove(at: victim)
                    let target = Int(random.next(upperBound: UInt64(rows.count)))
                    let updated = random.next(upperBound: 3) == 0 ? (row.link, (row.title + 1) % 3) : row
                    rows[target].insert(updated, at: Int(random.next(upperBound: UInt64(rows[target].count + 1))))
                }
            }
        }
        return rows
    }

    private func build(_ rows: [[(link: Int, title: Int)]]) -> [PhotoSection] {
        rows.map { row in
            .result(row.map { .result(PhotoModelTests.item("https://flickr.test/\($0.link)", title: "title \($0.title)")) })
        }
    }

    func testApplyReproducesTheTargetForRandomLists() {
        var random = SplitMix64(seed: 0x5EED_2026)
        var seen = (moves: 0, updates: 0, insertedSections: 0, deletedSections: 0, duplicates: 0)
        for iteration in 0..<4_000 {
            let a = randomSections(&random)
            let b = iteration % 2 == 0 ? mutated(a, &random) : randomSections(&random)
            let old = build(a)
            let new = build(b)
            let changeset = Changeset(from: old, to: new)
            seen.moves += changeset.movedItems.count
            seen.updates += changeset.updatedItems.count
            seen.insertedSections += changeset.insertedSections.count
            seen.deletedSections += changeset.deletedSections.count
            if Set(a.joined().map(\.link)).count < a.joined().count { seen.duplicates += 1 }
            assertSameContent(changeset.apply(to: old), new, "iteration \(iteration)")

            let oldRows = old.reduce(0) { $0 + $1.items.count }
            let newRows = new.reduce(0) { $0 + $1.items.count }
            XCTAssertEqual(oldRows - changeset.deletedItems.count, newRows - changeset.insertedItems.count, "iteration \(iteration)")
            XCTAssertEqual(old.count - changeset.deletedSections.count, new.count - changeset.insertedSections.count)
            XCTAssertEqual(changeset.isEmpty, Changeset(from: new, to: old).isEmpty)
            if changeset.isEmpty {
                assertSameContent(old, new, "an empty changeset means identical lists")
            }
        }
        XCTAssertGreaterThan(seen.moves, 0)
        XCTAssertGreaterThan(seen.updates, 0)
        XCTAssertGreaterThan(seen.insertedSections, 0)
        XCTAssertGreaterThan(seen.deletedSections, 0)
        XCTAssertGreaterThan(seen.duplicates, 0)
    }
}
