import PhotoFeed
import XCTest

/// Builds sections from link names: `sections([["a", "b"], ["c"]])`.
func sections(_ links: [[String]], title: (String) -> String = { "title \($0)" }) -> [PhotoSection] {
    links.map { row in
        .result(row.map { .result(PhotoModelTests.item("https://flickr.test/\($0)", title: title($0))) })
    }
}

/// Asserts equal sections, comparing every field of every row, not only links.
func assertSameContent(
    _ actual: [PhotoSection], _ expected: [PhotoSection], _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual, expected, message, file: file, line: line)
    guard actual.count == expected.count else { return }
    for (lhs, rhs) in zip(actual, expected) {
        XCTAssertEqual(lhs.kind, rhs.kind, message, file: file, line: line)
        let same = lhs.items.count == rhs.items.count
            && zip(lhs.items, rhs.items).allSatisfy { $0.hasSameContent(as: $1) }
        XCTAssertTrue(same, "rows differ in a field other than link. \(message)", file: file, line: line)
    }
}

/// A path, briefly.
func path(_ section: Int, _ item: Int) -> Changeset.ItemPath {
    Changeset.ItemPath(section: section, item: item)
}
