import ImageDecoding
import PhotoFeed
import PhotoFeedViewerCore
import TestSupport
import XCTest

/// `p`'s preview, the thumbnail box that grows with the width, and the small fixes around them,
/// through ``ScreenModel`` and the renderers.
final class PreviewTests: LeakCheckingTestCase {
    private func model(photos: Int = 3, images: Bool = true) -> ScreenModel {
        screenModel(photos: photos, images: images, source: "demo")
    }

    /// A picture `width` x `height` whose left half is red and right half blue.
    private func picture(width: Int, height: Int) -> RGBImage {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [255, 0, 0] : [0, 0, 255] }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    func testPOpensThePreviewAndAnyKeyReturnsToTheList() {
        var screen = model()
        XCTAssertNil(screen.handle(.character("j"), width: 80, height: 24))
        XCTAssertNil(screen.handle(.character("p"), width: 80, height: 24))
        XCTAssertTrue(screen.state.previewing)
        XCTAssertNil(screen.handle(.character("n"), width: 80, height: 24), "the key that returns does nothing else")
        XCTAssertFalse(screen.state.previewing)
        XCTAssertEqual(screen.state.selection, 1)
        _ = screen.handle(.character("p"), width: 80, height: 24)
        XCTAssertEqual(screen.handle(.interrupt, width: 80, height: 24), .quit, "Ctrl-C still quits")
    }

    func testPWithoutPicturesSaysWhy() {
        var screen = model(images: false)
        _ = screen.handle(.character("p"), width: 80, height: 24)
        XCTAssertFalse(screen.state.previewing)
        XCTAssertEqual(screen.state.notice, "No pictures in this terminal (see --images)")
        screen.state.picturesOff = .colorsOff
        _ = screen.handle(.character("p"), width: 80, height: 24)
        XCTAssertEqual(screen.state.notice, "No pictures: colours are off (NO_COLOR or --no-color); --images blocks draws them all the same",
                       "names NO_COLOR when that is the reason, not the terminal")
        var empty = model(photos: 0)
        _ = empty.handle(.character("p"), width: 80, height: 24)
        XCTAssertFalse(empty.state.previewing)
        XCTAssertEqual(empty.state.notice, "No photo to preview")
    }

    func testThePreviewBoxIsAsLargeAsTheScreenAllowsKeepingTheAspectRatio() throws {
        var screen = model()
        _ = screen.handle(.character("p"), width: 80, height: 24)
        // 24 lines: header, footer, 22 body lines, one of them the title: 21 rows = 42 pixel rows
        let wide = try XCTUnwrap(ScreenRenderer.previewBox(screen.state, width: 80, height: 24, cell: .loaded(picture(width: 240, height: 160))))
        XCTAssertEqual(wide.columns, 63, "21 rows of 2 pixels at 3:2")
        XCTAssertEqual(wide.rows, 21)
        XCTAssertEqual(wide.column, (80 - 63) / 2, "centred")
        let narrow = try XCTUnwrap(ScreenRenderer.previewBox(screen.state, width: 40, height: 24, cell: .loaded(picture(width: 240, height: 160))))
        XCTAssertEqual(narrow.columns, 40, "the width limits it")
        XCTAssertEqual(narrow.rows, 13, "40 x 26 pixels keeps 3:2 (rounded)")
        XCTAssertEqual(narrow.row, (21 - 13) / 2)
        let tall = try XCTUnwrap(ScreenRenderer.previewBox(screen.state, width: 200, height: 50, cell: .loaded(picture(width: 160, height: 240))))
        XCTAssertEqual(tall.rows, 47)
        XCTAssertEqual(tall.columns, 63, "94 pixel rows at 2:3")
        XCTAssertNil(ScreenRenderer.previewBox(screen.state, width: 80, height: 24, cell: .loading))
    }

    func testThePreviewIsDrawnInHalfBlocksWithTheTitleBelow() throws {
        var screen = model()
        _ = screen.handle(.character("p"), width: 80, height: 24)
        let image = picture(width: 240, height: 160)
        let lines = ScreenRenderer.lines(for: screen.state, width: 80, height: 24, style: .none, graphics: .halfBlocks(.truecolor),
                                         preview: .loaded(image))
        XCTAssertEqual(lines.count, 24)
        let box = try XCTUnwrap(ScreenRenderer.previewBox(screen.state, width: 80, height: 24, cell: .loaded(image)))
        let first = TerminalText.strippingEscapes(lines[1 + box.row])
        XCTAssertEqual(TerminalText.columns(of: first), 80)
        XCTAssertEqual(first.filter { $0 == "▀" }.count, box.columns)
        XCTAssertTrue(lines[1 + box.row].contains("38;2;255;0;0"), "the red half")
        XCTAssertTrue(lines[1 + box.row].contains("38;2;0;0;255"), "the blue half")
        XCTAssertTrue(lines[1 + box.row + box.rows].contains("Photo 1"), "the title under the picture")
        XCTAssertTrue(lines[23].contains("any key returns to the list"), lines[23])
        let palette = ScreenRenderer.lines(for: screen.state, width: 80, height: 24, style: .none, graphics: .halfBlocks(.palette256),
                                           preview: .loaded(image))
        XCTAssertTrue(palette[1 + box.row].contains("38;5;196"), "256 colours when that is the mode")
        XCTAssertTrue(ScreenRenderer.placements(for: screen.state, width: 80, height: 24, thumbnails: [:],
                                                preview: .loaded(image)).count == 1)
        let waiting = ScreenRenderer.lines(for: screen.state, width: 80, height: 24, style: .none, preview: .loading)
        XCTAssertTrue(waiting.contains { $0.contains("Loading the picture...") })
        let failed = ScreenRenderer.lines(for: screen.state, width: 80, height: 24, style: .none, preview: .failed("timeout"))
        XCTAssertTrue(failed.contains { $0.contains("The picture could not be loaded: timeout") })
    }

    func testThePreviewGoesToTheGraphicsProtocolInItsBox() throws {
        var screen = model()
        _ = screen.handle(.character("p"), width: 100, height: 30)
        let image = picture(width: 240, height: 160)
        let box = try XCTUnwrap(ScreenRenderer.previewBox(screen.state, width: 100, height: 30, cell: .loaded(image)))
        let placements = ScreenRenderer.placements(for: screen.state, width: 100, height: 30, thumbnails: [:], preview: .loaded(image))
        XCTAssertEqual(placements, [ThumbnailPlacement(row: 2 + box.row, column: 1 + box.column, columns: box.columns, rows: box.rows,
                                                       image: image, id: 0)])
        let overlay = ThumbnailPlacement.overlay(placements, graphics: .kitty)
        XCTAssertTrue(overlay.contains("c=\(box.columns),r=\(box.rows)"), overlay.prefix(200).description)
        let lines = ScreenRenderer.lines(for: screen.state, width: 100, height: 30, style: .none, graphics: .kitty, preview: .loaded(image))
        XCTAssertFalse(lines.joined().contains("▀"), "kitty draws over blank cells")
        XCTAssertTrue(ScreenRenderer.visiblePhotos(screen.state, width: 100, height: 30).isEmpty, "no list thumbnails behind the preview")
    }

    func testTheListThumbnailGrowsWithTheWidthWithinBounds() {
        XCTAssertEqual(ScreenRenderer.thumbnailSize(width: 40).columns, 12)
        XCTAssertEqual(ScreenRenderer.thumbnailSize(width: 80).columns, 12)
        XCTAssertEqual(ScreenRenderer.thumbnailSize(width: 120).columns, 15)
        XCTAssertEqual(ScreenRenderer.thumbnailSize(width: 200).columns, 24)
        XCTAssertEqual(ScreenRenderer.thumbnailSize(width: 200).rows, 8)
        XCTAssertEqual(ScreenRenderer.thumbnailSize(width: 1000).columns, 30)
        XCTAssertEqual(ScreenRenderer.thumbnailSize(width: 1000).rows, 10)
        let screen = model()
        let image = picture(width: 240, height: 160)
        let thumbnails = [photo(1).media.m: ThumbnailCell.loaded(image)]
        let lines = ScreenRenderer.lines(for: screen.state, width: 200, height: 20, style: .none, thumbnails: thumbnails,
                                         graphics: .halfBlocks(.truecolor))
        XCTAssertEqual(lines.count, 20)
        for row in 2..<10 {
            XCTAssertEqual(TerminalText.strippingEscapes(lines[row]).filter { $0 == "▀" }.count, 24, "row \(row)")
        }
        XCTAssertTrue(TerminalText.strippingEscapes(lines[10]).hasPrefix("  ░"), "the next photo starts after 8 rows")
        XCTAssertEqual(ScreenRenderer.placements(for: screen.state, width: 200, height: 20, thumbnails: thumbnails).first?.columns, 24)
    }

    func testAnyKeyClosesTheKeysQIncluded() {
        var screen = model()
        _ = screen.handle(.character("?"), width: 80, height: 24)
        XCTAssertNil(screen.handle(.character("q"), width: 80, height: 24), "? says any key closes: q too")
        XCTAssertFalse(screen.state.showingHelp)
        XCTAssertEqual(screen.handle(.character("q"), width: 80, height: 24), .quit)
    }

    func testTheFilterIgnoresAccentsAndCase() {
        var screen = model(photos: 0)
        screen.state.sections = [.result([.result(photo(1, title: "Lake at Zürich")), .result(photo(2, title: "Café")),
                                          .result(photo(3, title: "Oslo"))])]
        for key in ["/", "z", "u", "r", "i", "c", "h"] { _ = screen.handle(.character(Character(key)), width: 80, height: 24) }
        _ = screen.handle(.enter, width: 80, height: 24)
        XCTAssertEqual(screen.state.filter, "zurich")
        XCTAssertEqual(screen.state.shownPhotos.map(\.title), ["Lake at Zürich"])
        screen.state.filter = "CAFE"
        XCTAssertEqual(screen.state.shownPhotos.map(\.title), ["Café"])
        screen.state.filter = "ZÜR"
        XCTAssertEqual(screen.state.shownPhotos.map(\.title), ["Lake at Zürich"])
    }

    func testNWithAFilterSelectsTheFirstNewPhotoThatMatches() {
        var screen = model(photos: 0, images: false)
        screen.state.sections = [.result([.result(photo(1, title: "lake one")), .result(photo(2, title: "hill"))])]
        screen.state.filter = "lake"  // the tags of every test photo hold "sea"
        XCTAssertEqual(screen.handle(.character("n"), width: 80, height: 24), .loadMore)
        let next = PhotoSection.result([.result(photo(3, title: "hill again")), .result(photo(4, title: "lake two"))])
        screen.sectionsChanged(screen.state.sections + [next], width: 80, height: 24)
        XCTAssertEqual(screen.state.selectedPhoto?.title, "lake two")
        XCTAssertEqual(screen.handle(.character("n"), width: 80, height: 24), .loadMore)
        let unmatched = PhotoSection.result([.result(photo(5, title: "forest"))])
        screen.sectionsChanged(screen.state.sections + [unmatched], width: 80, height: 24)
        XCTAssertEqual(screen.state.selectedPhoto?.title, "lake two", "nothing new matches: the selection stays")
        XCTAssertEqual(screen.state.notice, "1 new photo, none matches the filter")
    }

    func testNAndRSayWhatTheyBroughtWhenNothingChanges() {
        var screen = model(photos: 3, images: false)
        _ = screen.handle(.character("n"), width: 80, height: 24)
        screen.loadFinished(succeeded: true)
        XCTAssertEqual(screen.state.notice, "No new photos: the feed sent only photos already shown")
        XCTAssertFalse(screen.state.followsNewSection)
        _ = screen.handle(.character("r"), width: 80, height: 24)
        screen.sectionsChanged([section([1, 2, 3])], width: 80, height: 24)
        screen.loadFinished(succeeded: true)
        XCTAssertEqual(screen.state.notice, "Reloaded: 3 photos")
        _ = screen.handle(.character("n"), width: 80, height: 24)
        screen.loadFinished(succeeded: false)
        XCTAssertNil(screen.state.notice, "a failure is the banner's to say")
    }

    func testAt40ColumnsTheKeysAndTheHelpBreakBetweenWords() {
        let screen = model(photos: 3, images: false)
        let footer = ScreenRenderer.lines(for: screen.state, width: 40, height: 10, style: .none)[9]
        XCTAssertFalse(footer.contains("…"), footer)
        XCTAssertTrue(footer.trimmingCharacters(in: .whitespaces).hasSuffix("? keys  q quit"), "kept while hints go: \(footer)")
        let wide = ScreenRenderer.lines(for: screen.state, width: 140, height: 10, style: .none)[9]
        XCTAssertTrue(wide.contains("t tags  ? keys  q quit"), wide)
        var help = model(photos: 3, images: false)
        _ = help.handle(.character("?"), width: 40, height: 40)
        let lines = ScreenRenderer.lines(for: help.state, width: 40, height: 40, style: .none)
        XCTAssertFalse(lines.dropFirst().dropLast().joined().contains("…"), lines.joined(separator: "\n"))
        let words = Set(ScreenRenderer.keyHelp(help.state).joined(separator: " ").split(separator: " "))
        for line in lines.dropFirst(2).dropLast() {
            for word in line.split(separator: " ") { XCTAssertTrue(words.contains(word), "\(word) in \(line)") }
        }
    }

    func testWithImagesOffTheTagsStillShow() {
        var screen = model(photos: 1, images: true)
        _ = screen.handle(.character("i"), width: 100, height: 10)
        XCTAssertFalse(screen.state.imagesEnabled)
        let lines = ScreenRenderer.lines(for: screen.state, width: 100, height: 10, style: .none)
        XCTAssertTrue(lines[3].contains("#sea #sky"), lines[3])
    }
}
