import Foundation
import XCTest

/// docs/MIGRATING.md's compiled listings: each `swift` block after a `<!-- check: <path> -->`
/// marker is, word for word, the file it names, which the package builds in the language mode of
/// its target (Package.swift's `migrationExamples`) and whose tests run with the suite. A marker
/// may show the module under the name a reader's app has: `<!-- check: <path>, module App =
/// MigrationFlickr -->` reads `import App` in the listing as `import MigrationFlickr` in the file.
final class MigratingListingTests: XCTestCase {
    private struct Listing {
        let path: String
        let line: Int
        let text: String
        let modules: [(shown: String, built: String)]

        /// The listing with each import of a shown module name renamed as the marker says.
        var asBuilt: String {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                for module in modules {
                    for prefix in ["import ", "@testable import "] where line == prefix + module.shown {
                        return prefix + module.built
                    }
                }
                return String(line)
            }.joined(separator: "\n")
        }
    }

    private let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func listings() throws -> [Listing] {
        let guide = try String(contentsOf: root.appendingPathComponent("docs/MIGRATING.md"), encoding: .utf8)
        let lines = guide.components(separatedBy: "\n")
        var listings: [Listing] = []
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard line.hasPrefix("<!-- check:"), line.hasSuffix("-->") else { continue }
            let fields = line.dropFirst("<!-- check:".count).dropLast("-->".count)
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            var modules: [(String, String)] = []
            for field in fields.dropFirst() {
                let parts = field.dropFirst("module ".count).split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                guard field.hasPrefix("module "), parts.count == 2 else {
                    XCTFail("MIGRATING.md line \(index): cannot read '\(field)'")
                    continue
                }
                modules.append((parts[0], parts[1]))
            }
            guard index < lines.count, lines[index] == "```swift" else {
                XCTFail("MIGRATING.md line \(index): a check marker must stand right before a ```swift block")
                continue
            }
            let start = index + 1
            guard let end = lines[start...].firstIndex(of: "```") else {
                XCTFail("MIGRATING.md line \(start): the block never closes")
                break
            }
            listings.append(Listing(path: fields[0], line: start + 1, text: lines[start..<end].joined(separator: "\n") + "\n",
                                    modules: modules))
            index = end + 1
        }
        return listings
    }

    func testEveryCheckedListingIsTheFileItNames() throws {
        let listings = try listings()
        XCTAssertGreaterThanOrEqual(listings.count, 18, "the guide's compiled listings")
        for listing in listings {
            XCTAssertTrue(listing.path.hasPrefix("Tests/Migration/"), "\(listing.path) is not a migration example")
            let file = root.appendingPathComponent(listing.path)
            guard let built = try? String(contentsOf: file, encoding: .utf8) else {
                XCTFail("MIGRATING.md line \(listing.line): \(listing.path) does not exist")
                continue
            }
            let shown = listing.asBuilt.components(separatedBy: "\n")
            let actual = built.components(separatedBy: "\n")
            if let first = zip(shown, actual).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                XCTFail("""
                    MIGRATING.md line \(listing.line + first.offset) differs from \(listing.path):\(first.offset + 1):
                      guide: \(first.element.0)
                      file:  \(first.element.1)
                    """)
            } else if shown.count != actual.count {
                XCTFail("MIGRATING.md line \(listing.line): \(listing.path) has \(actual.count) lines, the listing \(shown.count)")
            }
        }
    }

    func testNoFileIsShownTwice() throws {
        let paths = try listings().map(\.path)
        XCTAssertEqual(paths.count, Set(paths).count, "each file is one listing")
    }
}
