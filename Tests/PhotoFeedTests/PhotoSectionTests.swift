import PhotoFeed
import TestSupport
import XCTest

final class PhotoSectionTests: LeakCheckingTestCase {
    private func rebuilt<Section: SectionModelType>(_ section: Section, keepingFirst count: Int) -> Section {
        Section(original: section, items: Array(section.items.prefix(count)))
    }

    func testSectionModelTypeRebuildsTheSameKindWithOtherItems() {
        let section = sections([["a", "b", "c"]])[0]
        let shorter = rebuilt(section, keepingFirst: 1)
        XCTAssertEqual(shorter.kind, .result)
        XCTAssertEqual(shorter.items.map(\.identity), ["https://flickr.test/a"])
        XCTAssertEqual(PhotoSection(kind: .result, items: section.items), section)
    }

    func testSectionEqualityFollowsRowLinks() {
        let original = sections([["a", "b"]])
        let retitled = sections([["a", "b"]], title: { "other \($0)" })
        XCTAssertEqual(original, retitled)
        XCTAssertNotEqual(original, sections([["b", "a"]]))
        XCTAssertEqual(original[0].items[0].photo.title, "title a")
    }
}
