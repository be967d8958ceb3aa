import Foundation
import PhotoFeed
import PhotoFeedViewerCore
import TestSupport
import XCTest

final class RendererTests: LeakCheckingTestCase {
    func testPlainIsASectionLineThenOneLinePerPhoto() {
        let lines = PlainRenderer.lines(for: [section([1, 2]), section([3])])
        XCTAssertEqual(lines, [
            "Section 1 - 2 photos",
            "  Photo 1 | Ana Lima | 2026-11-20 08:14 | https://www.flickr.com/photos/ana/1/",
            "  Photo 2 | Ana Lima | 2026-11-20 08:14 | https://www.flickr.com/photos/ana/2/",
            "Section 2 - 1 photo",
            "  Photo 3 | Ana Lima | 2026-11-20 08:14 | https://www.flickr.com/photos/ana/3/",
        ])
    }

    func testPlainWithColourOnlyStylesTheSectionLine() {
        let lines = PlainRenderer.lines(for: section([1]), number: 4, style: TextStyle(enabled: true))
        XCTAssertEqual(lines.first, "\u{1B}[1mSection 4 - 1 photo\u{1B}[0m")
        XCTAssertFalse(lines[1].contains("\u{1B}"))
    }

    func testFeedTextCannotInjectEscapesOrLineBreaks() {
        let hostile = Photo.Item(title: "evil\u{1B}[2J\ntitle\u{9B}31m", link: "https://x/\u{7}",
                                 media: .init(m: ""), author: "nobody@flickr.com (bad\rname)", authorID: "1",
                                 published: "2026", tags: "", description: "")
        let lines = PlainRenderer.lines(for: .result([.result(hostile)]), number: 1)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[1], "  evil [2J title 31m | bad name | 2026 | https://x/ ")
        let screen = ScreenRenderer.lines(for: state(sections: [.result([.result(hostile)])]), width: 60, height: 6, style: .none)
        XCTAssertFalse(screen.joined().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    func testAuthorNamesAndBlankTitles() {
        XCTAssertEqual(PhotoText.author(photo(1, author: "nobody@flickr.com (\"Ana Lima\")")), "Ana Lima")
        XCTAssertEqual(PhotoText.author(photo(1, author: "nobody@flickr.com (plain name)")), "plain name")
        XCTAssertEqual(PhotoText.author(photo(1, author: "nobody@flickr.com (\"\\\"quoted\\\"\")")), "\\\"quoted\\\"")
        XCTAssertEqual(PhotoText.author(photo(1, author: "someone")), "someone")
        XCTAssertEqual(PhotoText.title(photo(1, title: " ")), "(untitled)")
        XCTAssertEqual(PhotoText.title(photo(1, title: "")), "(untitled)")
    }

    func testJSONLinesCarryTheDocumentedKeysPerPhoto() throws {
        let lines = JSONLinesRenderer.lines(for: section([5, 6]), number: 2)
        XCTAssertEqual(lines.count, 2)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(object["section"] as? Int, 2)
        XCTAssertEqual(object["title"] as? String, "Photo 5")
        XCTAssertEqual(object["link"] as? String, "https://www.flickr.com/photos/ana/5/")
        XCTAssertEqual(object["author"] as? String, "Ana Lima", "the parsed name, not the feed's raw field")
        XCTAssertEqual(object["authorID"] as? String, "12@N01")
        XCTAssertEqual(object["media"] as? String, "https://live.staticflickr.com/5_m.jpg")
        XCTAssertEqual(object["published"] as? String, "2026-11-20T08:14:51Z")
        XCTAssertEqual(object["tags"] as? String, "sea sky")
        XCTAssertFalse(lines[0].contains("\n"))
        let decoded = try JSONDecoder().decode(JSONLinesRenderer.PhotoLine.self, from: Data(lines[1].utf8))
        XCTAssertEqual(decoded, JSONLinesRenderer.PhotoLine(section: 2, item: photo(6)))
    }

    func testJSONEscapesControlCharactersInsteadOfBreakingTheLine() {
        let lines = JSONLinesRenderer.lines(for: .result([.result(photo(1, title: "a\nb\u{1B}"))]), number: 1)
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines[0].contains(#""title":"a\nb\u001b""#), lines[0])
    }

    private func state(sections: [PhotoSection] = [], inFlight: Int = 0, error: String? = nil) -> ScreenState {
        var state = ScreenState(request: PhotoRequest(tags: "sea", tagmode: "all"), sourceLabel: "demo 127.0.0.1:4000")
        state.sections = sections
        state.inFlight = inFlight
        state.errorMessage = error
        return state
    }

    private func assertFits(_ lines: [String], width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(lines.count, height, "line count", file: file, line: line)
        for text in lines {
            XCTAssertEqual(TerminalText.columns(of: TerminalText.strippingEscapes(text)), width, text, file: file, line: line)
        }
    }

    func testTheScreenHasAHeaderRowsAndTheKeysInExactlyItsSize() {
        let lines = ScreenRenderer.lines(for: state(sections: [section([1, 2]), section([3])]), width: 80, height: 10, style: .none)
        assertFits(lines, width: 80, height: 10)
        XCTAssertTrue(lines[0].hasPrefix(" photo-feed  ·  tags: sea (all)  ·  2 sections, 3 photos  ·  demo 127.0.0.1:4000"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("── Section 1 · 2 photos ──"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("▸ Photo 1 "), "the selected photo is marked: \(lines[2])")
        XCTAssertTrue(lines[3].hasPrefix("    Ana Lima · 2026-11-20 08:14 · #sea #sky · https://www.flickr.com/photos/ana"), lines[3])
        XCTAssertTrue(lines[4].hasPrefix("  Photo 2 "), lines[4])
        XCTAssertTrue(lines[6].hasPrefix("── Section 2 · 1 photo ──"), lines[6])
        XCTAssertTrue(lines[9].hasPrefix(" photo 1 of 3  │ ↑/↓ select  Enter open  y copy  / filter  ? keys  q quit"), lines[9])
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "no escapes without colour")
    }

    func testTheSpinnerTurnsOnlyWhileARequestIsInFlight() {
        var loading = state(inFlight: 1)
        XCTAssertTrue(ScreenRenderer.header(loading).hasSuffix("| loading"))
        loading.spinnerFrame = 1
        XCTAssertTrue(ScreenRenderer.header(loading).hasSuffix("/ loading"))
        XCTAssertFalse(ScreenRenderer.header(state()).contains("loading"))
        let lines = ScreenRenderer.lines(for: loading, width: 40, height: 5, style: .none)
        XCTAssertTrue(lines[1].contains("Loading photos..."))
        XCTAssertTrue(ScreenRenderer.lines(for: state(), width: 40, height: 5, style: .none)[1].contains("Press n to load"))
    }

    func testTheErrorBannerSitsAboveTheKeys() {
        let lines = ScreenRenderer.lines(for: state(sections: [section([1])], error: "The request timed out."),
                                         width: 50, height: 8, style: TextStyle(enabled: true))
        assertFits(lines, width: 50, height: 8)
        XCTAssertEqual(TerminalText.strippingEscapes(lines[6]), TerminalText.fitted(" ! The request timed out.", to: 50))
        XCTAssertTrue(lines[6].hasPrefix("\u{1B}[97;41m"))
        XCTAssertEqual(ScreenRenderer.bodyHeight(state(error: "x"), height: 8), 5)
    }

    func testScrollShowsLaterRowsAndIsClampedToTheContent() {
        var scrolled = state(sections: [section(Array(1...10))])
        scrolled.scroll = 3
        let lines = ScreenRenderer.lines(for: scrolled, width: 90, height: 6, style: .none)
        XCTAssertTrue(lines[1].hasPrefix("  Photo 2 "), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("    Ana Lima · 2026-11-20 08:14 · #sea #sky · https://www.flickr.com/photos/ana/2/"), lines[2])
        XCTAssertTrue(lines[3].hasPrefix("  Photo 3 "), lines[3])
        XCTAssertEqual(ScreenRenderer.maxScroll(scrolled, width: 90, height: 6), 21 - 4)
        scrolled.scroll = 1000
        let bottom = ScreenRenderer.lines(for: scrolled, width: 90, height: 6, style: .none)
        XCTAssertTrue(bottom[4].hasPrefix("    Ana Lima · 2026-11-20 08:14 · #sea #sky · https://www.flickr.com/photos/ana/10/"), bottom[4])
    }

    func testTinyAndNarrowScreensStillFit() {
        let full = state(sections: [section([1, 2])], inFlight: 2, error: "No internet connection.")
        for (width, height) in [(1, 1), (5, 2), (12, 3), (20, 4), (200, 50)] {
            assertFits(ScreenRenderer.lines(for: full, width: width, height: height, style: TextStyle(enabled: true)),
                       width: width, height: height)
        }
        XCTAssertEqual(ScreenRenderer.lines(for: full, width: 0, height: 10, style: .none), [])
    }

    func testThePromptReplacesTheKeys() {
        var prompting = state()
        prompting.prompt = "cats"
        prompting.promptCursor = 4
        XCTAssertTrue(ScreenRenderer.lines(for: prompting, width: 60, height: 4, style: .none)[3].hasPrefix(" New tags: cats_"))
        prompting.promptCursor = 1
        XCTAssertTrue(ScreenRenderer.lines(for: prompting, width: 60, height: 4, style: .none)[3].hasPrefix(" New tags: c|ats "))
        prompting.prompt = nil
        prompting.filterPrompt = "sk"
        prompting.promptCursor = 2
        XCTAssertTrue(ScreenRenderer.lines(for: prompting, width: 60, height: 4, style: .none)[3].hasPrefix(" Filter: sk_"))
    }

    func testWideCharactersCountTwoColumns() {
        XCTAssertEqual(TerminalText.columns(of: "東京"), 4)
        XCTAssertEqual(TerminalText.columns(of: "e\u{301}"), 1)
        XCTAssertEqual(TerminalText.fitted("東京タワー", to: 5), "東京…")
        XCTAssertEqual(TerminalText.fitted("東京タワー", to: 4), "東… ")
        XCTAssertEqual(TerminalText.columns(of: TerminalText.fitted("東京タワー", to: 5)), 5)
        XCTAssertEqual(TerminalText.truncated("abcdef", to: 4), "abc…")
        XCTAssertEqual(TerminalText.truncated("abcd", to: 4), "abcd")
    }
}
