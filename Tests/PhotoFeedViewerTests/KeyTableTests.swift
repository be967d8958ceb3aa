import Foundation
import PhotoFeedViewerCore
import XCTest

/// The keys `?` lists are those `--help` prints and docs/PHOTO_FEED.md shows: all three from `KeyTable`.
final class KeyTableTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The key names of the `?` screen's rows (the first column, up to the two-space gap).
    private func screenKeys(_ lines: [String]) -> [String] {
        lines.flatMap { line in
            (line.range(of: "  ").map { String(line[..<$0.lowerBound]) } ?? line).split(separator: " ").map(String.init)
        }
    }

    func testTheHelpScreenListsEveryRowWithPicturesAndSaysWhyWithout() {
        let with = KeyTable.lines(picturesAvailable: true, picturesOff: "unused")
        XCTAssertEqual(with.count, KeyTable.entries.count)
        XCTAssertEqual(with[1], "PgUp PgDn    a page up or down (also b, and Space or f)")
        XCTAssertEqual(with[2], "g G          the first or last photo (also Home, End)")
        XCTAssertEqual(screenKeys(with), KeyTable.entries.flatMap(\.keys))
        let without = KeyTable.lines(picturesAvailable: false, picturesOff: "no pictures: NO_COLOR is set")
        XCTAssertEqual(without.count, KeyTable.entries.count - 1)
        XCTAssertTrue(without.contains("i p          no pictures: NO_COLOR is set"), without.joined(separator: "\n"))
        XCTAssertFalse(without.contains { $0.hasPrefix("i ") && $0.contains("thumbnails") })
    }

    func testHelpPrintsEveryKeyTheScreenLists() {
        let keys = screenKeys(KeyTable.lines(picturesAvailable: true, picturesOff: ""))
        let section = Usage.text.components(separatedBy: "Keys (full screen):").last ?? ""
        let help = section.components(separatedBy: "Exit status").first ?? ""
        XCTAssertEqual(screenKeys(help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("(") && $0.range(of: "  ") != nil }), keys,
                       "every key, in the screen's order:\n\(help)")
        for key in ["PgUp", "PgDn", "g", "G"] { XCTAssertTrue(keys.contains(key), key) }
        for line in help.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            XCTAssertLessThanOrEqual(line.count, 79, String(line))
            XCTAssertTrue(line.hasPrefix("  "), "indented, wrapped rows too: '\(line)'")
        }
        XCTAssertTrue(help.contains("\n  /            filter loaded photos"), help)
        XCTAssertTrue(help.contains("\n" + String(repeating: " ", count: 15) + "accents (Esc clears)"), help)
    }

    func testPhotoFeedMarkdownShowsTheTable() throws {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/PHOTO_FEED.md"), encoding: .utf8)
        XCTAssertTrue(doc.contains(KeyTable.markdown + "\n"), "docs/PHOTO_FEED.md's keys table must be:\n\(KeyTable.markdown)")
        let keysSection = doc.components(separatedBy: "## Keys").dropFirst().first ?? ""
        for key in KeyTable.entries.flatMap(\.keys) {
            XCTAssertTrue(keysSection.contains("`\(key)`"), key)
        }
    }

    func testWrappingKeepsTheLeadingSpaces() {
        XCTAssertEqual(TerminalText.wrapped("  ab cd ef", to: 9, indent: 4), ["  ab cd", "    ef"])
        XCTAssertEqual(TerminalText.wrapped("ab cd ef", to: 5, indent: 1), ["ab cd", " ef"])
        XCTAssertEqual(TerminalText.wrapped("  ab", to: 7, indent: 4), ["  ab"])
    }
}
