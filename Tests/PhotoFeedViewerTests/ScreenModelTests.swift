import PhotoFeed
import PhotoFeedViewerCore
import TestSupport
import XCTest

final class ScreenModelTests: LeakCheckingTestCase {
    private func model(photos: Int = 10, images: Bool = false) -> ScreenModel {
        screenModel(photos: photos, images: images)
    }

    private func press(_ keys: [Key], on screen: inout ScreenModel, width: Int = 80, height: Int = 10) -> [ScreenCommand?] {
        keys.map { screen.handle($0, width: width, height: height) }
    }

    func testKeysAskForCommands() {
        var screen = model()
        XCTAssertEqual(screen.handle(.character("n"), width: 80, height: 10), .loadMore)
        XCTAssertEqual(screen.handle(.character("r"), width: 80, height: 10), .reload)
        XCTAssertEqual(screen.handle(.character("q"), width: 80, height: 10), .quit)
        XCTAssertEqual(screen.handle(.interrupt, width: 80, height: 10), .quit)
        XCTAssertNil(screen.handle(.character("z"), width: 80, height: 10))
    }

    func testTheSelectionMovesAndTheScrollFollowsIt() {
        var screen = model()
        let (width, height) = (80, 10)   // 8 body rows: the section line, then 2 rows per photo
        _ = press([.character("k")], on: &screen)
        XCTAssertEqual(screen.state.selection, 0, "cannot go above the first photo")
        _ = press([.character("j"), .down, .down], on: &screen)
        XCTAssertEqual(screen.state.selection, 3)
        XCTAssertEqual(screen.state.scroll, 1, "photo 4's rows 7-8 end the screen")
        _ = press([.up], on: &screen)
        XCTAssertEqual(screen.state.selection, 2)
        XCTAssertEqual(screen.state.scroll, 1)
        _ = press([.pageDown], on: &screen)
        XCTAssertEqual(screen.state.selection, 6)
        _ = press([.end], on: &screen)
        XCTAssertEqual(screen.state.selection, 9)
        XCTAssertEqual(screen.state.scroll, ScreenRenderer.maxScroll(screen.state, width: width, height: height))
        _ = press([.home], on: &screen)
        XCTAssertEqual(screen.state.selection, 0)
        XCTAssertEqual(screen.state.scroll, 0, "the section line of the first photo shows too")
        XCTAssertEqual(screen.state.selectedPhoto?.link, photo(1).link)
    }

    func testEnterAndOOpenTheSelectedPhotoAndYCopiesIt() {
        var screen = model()
        _ = press([.down, .down], on: &screen)
        XCTAssertEqual(screen.handle(.enter, width: 80, height: 10), .open(photo(3)))
        XCTAssertEqual(screen.handle(.character("o"), width: 80, height: 10), .open(photo(3)))
        XCTAssertEqual(screen.handle(.character("y"), width: 80, height: 10), .copyLink(photo(3)))
        var empty = model(photos: 0)
        XCTAssertNil(empty.handle(.enter, width: 80, height: 10), "nothing to open")
    }

    func testTheFilterSelectsTheFirstMatchWhenTheSelectedPhotoNoLongerMatches() {
        var screen = model(photos: 0)
        screen.state.sections = [.result([.result(photo(1, title: "Cat")), .result(photo(2, title: "Dog")),
                                          .result(photo(3, title: "Cat two"))])]
        _ = press([.down, .down], on: &screen)
        _ = press([.character("/"), .character("c"), .character("a")], on: &screen)
        XCTAssertEqual(screen.state.selectedPhoto?.link, photo(3).link, "still matches: kept")
        _ = press([.deleteToStart, .character("d")], on: &screen)
        XCTAssertEqual(screen.state.selectedPhoto?.link, photo(2).link, "the first match")
    }

    func testTheFilterKeepsMatchingPhotosByTitleAuthorOrTag() {
        var screen = model(photos: 12)
        screen.state.sections = [.result([.result(photo(1, title: "Harbour at dawn")), .result(photo(2, title: "Cat")),
                                          .result(photo(3, title: "x", author: "nobody@flickr.com (\"Harbour Master\")"))])]
        _ = press([.character("/"), .character("H"), .character("a"), .character("r")], on: &screen)
        XCTAssertEqual(screen.state.filterPrompt, "Har")
        XCTAssertEqual(screen.state.shownPhotos.map(\.link), [photo(1).link, photo(3).link], "filters as you type")
        XCTAssertEqual(screen.state.selectedPhoto?.link, photo(1).link)
        _ = press([.enter], on: &screen)
        XCTAssertNil(screen.state.filterPrompt)
        XCTAssertEqual(screen.state.filter, "Har")
        _ = press([.character("j"), .character("j")], on: &screen)
        XCTAssertEqual(screen.state.selectedPhoto?.link, photo(3).link, "the selection stays within the filtered photos")
        _ = press([.character("/"), .deleteToStart, .character("s"), .character("k"), .character("y"), .enter], on: &screen)
        XCTAssertEqual(screen.state.shownPhotos.count, 3, "every photo is tagged sky")
        _ = press([.escape], on: &screen)
        XCTAssertEqual(screen.state.filter, "")
    }

    func testITogglesImagesOnlyWhereTheTerminalHasThem() {
        var screen = model(images: true)
        _ = press([.character("i")], on: &screen)
        XCTAssertFalse(screen.state.imagesEnabled)
        _ = press([.character("i")], on: &screen)
        XCTAssertTrue(screen.state.imagesEnabled)
        var plain = model(images: false)
        _ = press([.character("i")], on: &plain)
        XCTAssertFalse(plain.state.imagesEnabled)
        XCTAssertEqual(plain.state.notice, "No pictures in this terminal (see --images)")
        plain.state.picturesOff = .colorsOff
        _ = press([.character("i")], on: &plain)
        XCTAssertEqual(plain.state.notice, PicturesOff.colorsOff.notice)
        XCTAssertTrue(PicturesOff.colorsOff.notice.contains("NO_COLOR or --no-color"))
        plain.state.picturesOff = .asked
        _ = press([.character("i")], on: &plain)
        XCTAssertEqual(plain.state.notice, "No pictures: --images none")
    }

    func testTheFooterOffersPictureKeysOnlyWhereThereArePictures() {
        let with = ScreenRenderer.lines(for: model(photos: 3, images: true).state, width: 140, height: 10, style: .none)[9]
        XCTAssertTrue(with.contains("p preview") && with.contains("i images"), with)
        var without = model(photos: 3, images: false)
        without.state.picturesOff = .colorsOff
        let footer = ScreenRenderer.lines(for: without.state, width: 140, height: 10, style: .none)[9]
        XCTAssertFalse(footer.contains("p preview") || footer.contains("i images"), footer)
        XCTAssertTrue(footer.contains("y copy  / filter  n more  r reload  t tags  ? keys  q quit"), footer)
    }

    func testTheKeysListPictureKeysOnlyWhereThereArePicturesAndSayWhyNot() {
        var with = model(photos: 3, images: true)
        _ = press([.character("?")], on: &with)
        let shown = ScreenRenderer.lines(for: with.state, width: 100, height: 20, style: .none).joined(separator: "\n")
        XCTAssertTrue(shown.contains("i            thumbnails on or off"), shown)
        XCTAssertTrue(shown.contains("p            the selected photo as large as the screen allows"), shown)
        // What the viewer's start gives the screen under NO_COLOR (DisplayPlan's `picturesOff`).
        let plan = DisplayPlan(options: ViewerOptions(), environment: ["TERM": "xterm-256color", "NO_COLOR": "1"],
                               stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true)
        XCTAssertEqual(plan.picturesOff, .colorsOff)
        var without = model(photos: 3, images: false)
        without.state.picturesOff = plan.picturesOff ?? .terminal
        _ = press([.character("?")], on: &without)
        let help = ScreenRenderer.lines(for: without.state, width: 100, height: 20, style: .none).joined(separator: "\n")
        XCTAssertFalse(help.contains("thumbnails on or off") || help.contains("the selected photo as large"), help)
        XCTAssertTrue(help.contains("i p          No pictures: colours are off (NO_COLOR or --no-color)"), help)
        XCTAssertTrue(help.contains("y            copy the photo's link"), "the other keys stay: \(help)")
    }

    func testQuestionMarkShowsTheKeysUntilTheNextKey() {
        var screen = model()
        _ = press([.character("?")], on: &screen)
        XCTAssertTrue(screen.state.showingHelp)
        let lines = ScreenRenderer.lines(for: screen.state, width: 100, height: 20, style: .none)
        XCTAssertTrue(lines.contains { $0.contains("Enter o      open the photo's page in the browser") })
        XCTAssertEqual(press([.character("j")], on: &screen), [nil])
        XCTAssertFalse(screen.state.showingHelp)
        XCTAssertEqual(screen.state.selection, 0, "the key that closes the keys does nothing else")
    }

    func testNMovesToTheNewSectionWhenItArrives() {
        var screen = model(photos: 3)
        XCTAssertEqual(screen.handle(.character("n"), width: 80, height: 10), .loadMore)
        XCTAssertEqual(screen.state.selection, 0, "nothing moves before the section arrives")
        screen.sectionsChanged(screen.state.sections + [section([4, 5])], width: 80, height: 10)
        XCTAssertEqual(screen.state.selectedPhoto?.link, photo(4).link)
        let rows = ScreenRenderer.rowRange(ofPhoto: 3, screen.state, width: 80)
        XCTAssertEqual(rows, 7...9, "the new section's line and the photo's two rows")
        XCTAssertEqual(screen.state.scroll, ScreenRenderer.maxScroll(screen.state, width: 80, height: 10),
                       "scrolled as far down as it goes, towards the new section")
        screen.sectionsChanged(screen.state.sections + [section([6])], width: 80, height: 10)
        XCTAssertEqual(screen.state.selectedPhoto?.link, photo(4).link, "a section nobody asked for with n does not move it")
    }

    func testReloadKeepsTheOldPhotosUntilTheNewOnesArrive() {
        var screen = model(photos: 3)
        _ = press([.down], on: &screen)
        XCTAssertEqual(screen.handle(.character("r"), width: 80, height: 10), .reload)
        screen.sectionsChanged([], width: 80, height: 10)
        XCTAssertEqual(screen.state.photoCount, 3, "the store's reset does not empty the screen")
        XCTAssertTrue(screen.state.reloading)
        screen.sectionsChanged([section([7, 8])], width: 80, height: 10)
        XCTAssertEqual(screen.state.shownPhotos.map(\.link), [photo(7).link, photo(8).link])
        XCTAssertFalse(screen.state.reloading)
        XCTAssertEqual(screen.state.selection, 0)
    }

    func testAFailedReloadKeepsTheOldPhotos() {
        var screen = model(photos: 3)
        _ = screen.handle(.character("r"), width: 80, height: 10)
        screen.sectionsChanged([], width: 80, height: 10)
        screen.loadFinished(succeeded: false)
        XCTAssertFalse(screen.state.reloading)
        XCTAssertEqual(screen.state.photoCount, 3)
    }

    func testTheTagsEditorMovesTheCursorAndDeletesWordsAndToTheStart() {
        var screen = model()
        _ = press([.character("t")], on: &screen)
        XCTAssertEqual(screen.state.prompt, "sea")
        _ = press([.character(","), .character(" "), .character("s"), .character("k"), .character("y")], on: &screen)
        XCTAssertEqual(screen.state.prompt, "sea, sky")
        _ = press([.deleteWord], on: &screen)
        XCTAssertEqual(screen.state.prompt, "sea, ")
        _ = press([.deleteWord], on: &screen)
        XCTAssertEqual(screen.state.prompt, "")
        _ = press("cat dog".map { Key.character($0) } + [.left, .left, .left, .left], on: &screen)
        XCTAssertEqual(screen.state.promptCursor, 3)
        _ = press([.character("s"), .right, .backspace], on: &screen)
        XCTAssertEqual(screen.state.prompt, "catsdog")
        _ = press([.left, .left, .deleteToStart], on: &screen)
        XCTAssertEqual(screen.state.prompt, "tsdog")
        XCTAssertEqual(screen.state.promptCursor, 0)
        _ = press([.character("\u{1}")], on: &screen)
        XCTAssertEqual(screen.state.prompt, "tsdog", "other control characters are not typed")
        XCTAssertEqual(screen.handle(.enter, width: 80, height: 10), .changeTags("tsdog"))
        XCTAssertNil(screen.state.prompt)
    }

    func testEscapeCancelsThePrompt() {
        var screen = model()
        _ = screen.handle(.character("t"), width: 80, height: 10)
        _ = screen.handle(.character("x"), width: 80, height: 10)
        XCTAssertNil(screen.handle(.escape, width: 80, height: 10))
        XCTAssertNil(screen.state.prompt)
        XCTAssertEqual(screen.state.request.tags, "sea")
    }

    func testCtrlUAndCtrlWAreDecodedBesideTheOtherKeys() {
        var decoder = EditingKeyDecoder()
        XCTAssertEqual(decoder.feed([0x61, 0x15, 0x1B, 0x5B]), [.character("a"), .deleteToStart])
        XCTAssertEqual(decoder.feed([0x44, 0x17, 0x62]), [.left, .deleteWord, .character("b")])
    }
}
