import PhotoFeed
import TestSupport
import XCTest

final class ChangesetTests: LeakCheckingTestCase {
    private func diff(_ old: [PhotoSection], _ new: [PhotoSection], file: StaticString = #filePath, line: UInt = #line)
        -> Changeset
    {
        let changeset = Changeset(from: old, to: new)
        assertSameContent(changeset.apply(to: old), new, file: file, line: line)
        return changeset
    }

    func testIdenticalListsGiveAnEmptyChangeset() {
        let list = sections([["a", "b"], ["c"]])
        XCTAssertTrue(diff(list, list).isEmpty)
        XCTAssertTrue(diff([], []).isEmpty)
    }

    func testAppendingASectionInsertsItAndItsRows() {
        let changeset = diff(sections([["a", "b"]]), sections([["a", "b"], ["c", "d"]]))
        XCTAssertEqual(changeset.insertedSections, [1])
        XCTAssertEqual(changeset.insertedItems, [path(1, 0), path(1, 1)])
        XCTAssertEqual(changeset.deletedSections, [])
        XCTAssertEqual(changeset.deletedItems, [])
        XCTAssertEqual(changeset.movedItems, [])
        XCTAssertEqual(changeset.updatedItems, [])
    }

    func testInsertAndDeleteRows() {
        let inserted = diff(sections([["a", "b", "c"]]), sections([["a", "x", "b", "c", "y"]]))
        XCTAssertEqual(inserted.insertedItems, [path(0, 1), path(0, 4)])
        XCTAssertTrue(inserted.movedItems.isEmpty && inserted.deletedItems.isEmpty)

        let deleted = diff(sections([["a", "b", "c"]]), sections([["a", "c"]]))
        XCTAssertEqual(deleted.deletedItems, [path(0, 1)])
        XCTAssertTrue(deleted.movedItems.isEmpty && deleted.insertedItems.isEmpty)
    }

    func testOneRowMovedToEitherEndIsOneMove() {
        let toFront = diff(sections([["a", "b", "c", "d"]]), sections([["d", "a", "b", "c"]]))
        XCTAssertEqual(toFront.movedItems, [Changeset.ItemMove(from: path(0, 3), to: path(0, 0))])
        XCTAssertTrue(toFront.insertedItems.isEmpty && toFront.deletedItems.isEmpty)

        let toBack = diff(sections([["a", "b", "c", "d"]]), sections([["b", "c", "d", "a"]]))
        XCTAssertEqual(toBack.movedItems, [Changeset.ItemMove(from: path(0, 0), to: path(0, 3))])
    }

    func testMoveAcrossSections() {
        let changeset = diff(sections([["a", "b"], ["c"]]), sections([["a"], ["c", "b"]]))
        XCTAssertEqual(changeset.movedItems, [Changeset.ItemMove(from: path(0, 1), to: path(1, 1))])
        XCTAssertTrue(changeset.insertedItems.isEmpty && changeset.deletedItems.isEmpty)
    }

    func testUpdateIsASameLinkWithAnotherField() {
        let old = sections([["a", "b"]])
        let new = sections([["a", "b"]], title: { $0 == "b" ? "renamed" : "title \($0)" })
        let changeset = diff(old, new)
        XCTAssertEqual(changeset.updatedItems, [path(0, 1)])
        XCTAssertTrue(changeset.insertedItems.isEmpty && changeset.deletedItems.isEmpty && changeset.movedItems.isEmpty)
        XCTAssertEqual(changeset.apply(to: old)[0].items[1].photo.title, "renamed")
        XCTAssertNotEqual(changeset, Changeset(from: old, to: old))
        XCTAssertEqual(changeset, Changeset(from: old, to: new))
    }

    func testUpdatedAndMovedRow() {
        let old = sections([["a", "b", "c"]])
        let new = sections([["c", "a", "b"]], title: { $0 == "c" ? "new" : "title \($0)" })
        let changeset = diff(old, new)
        XCTAssertEqual(changeset.movedItems, [Changeset.ItemMove(from: path(0, 2), to: path(0, 0))])
        XCTAssertEqual(changeset.updatedItems, [path(0, 0)])
    }

    func testSectionsRemoved() {
        let removed = diff(sections([["a"], ["b", "c"], []]), sections([["a"]]))
        XCTAssertEqual(removed.deletedSections, [1, 2])
        XCTAssertEqual(removed.deletedItems, [path(1, 0), path(1, 1)])

        let merged = diff(sections([["a"], ["b"]]), sections([["a", "b"]]))
        XCTAssertEqual(merged.deletedSections, [1])
        XCTAssertEqual(merged.movedItems, [Changeset.ItemMove(from: path(1, 0), to: path(0, 1))])
        XCTAssertEqual(merged.deletedItems, [])

        let cleared = diff(sections([["a"], ["b"]]), [])
        XCTAssertEqual(cleared.deletedSections, [0, 1])
    }

    func testSectionsAddedFromNothing() {
        let changeset = diff([], sections([["a"], [], ["b"]]))
        XCTAssertEqual(changeset.insertedSections, [0, 1, 2])
        XCTAssertEqual(changeset.insertedItems, [path(0, 0), path(2, 0)])
    }

    func testDuplicateLinksMatchByOccurrence() {
        let grown = diff(sections([["a", "a", "b"]]), sections([["a", "b", "a", "a"]]))
        XCTAssertEqual(grown.insertedItems.count, 1)
        XCTAssertEqual(grown.deletedItems, [])

        let shrunk = diff(sections([["a", "a", "a"]]), sections([["a"]]))
        XCTAssertEqual(shrunk.deletedItems, [path(0, 1), path(0, 2)])
        XCTAssertEqual(shrunk.insertedItems, [])

        let spread = diff(sections([["a", "b"], ["a"]]), sections([["a"], ["b", "a", "a"]]))
        XCTAssertEqual(spread.insertedItems.count, 1)
        XCTAssertEqual(spread.deletedItems.count, 0)
    }

    func testApplyingToAnotherListDoesNotTrap() {
        let changeset = Changeset(from: sections([["a", "b", "c"], ["d"]]), to: sections([["d"], ["c", "x"]]))
        let result = changeset.apply(to: sections([["q"]]))
        XCTAssertLessThanOrEqual(result.count, 2)
        XCTAssertEqual(changeset.apply(to: []), [])
    }

    func testLargeListsRoundTrip() {
        let old = sections([(0..<20_000).map(String.init), (20_000..<30_000).map(String.init)])
        let new = sections([(5_000..<25_000).reversed().map(String.init), (30_000..<31_000).map(String.init)])
        let changeset = diff(old, new)
        XCTAssertEqual(changeset.insertedItems.count, 1_000)
        XCTAssertEqual(changeset.deletedItems.count, 10_000)
    }
}
