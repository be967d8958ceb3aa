import PhotoFeed
import PhotoFeedViewerCore
import TestSupport
import XCTest

final class ScreenModelTests: LeakCheckingTestCase {
    private func model(photos: Int = 10) -> ScreenModel {
        var state = ScreenState(request: PhotoRequest(tags: "sea"), sourceLabel: "offline")
        state.sections = photos > 0 ? [section(Array(1...photos))] : []
        return ScreenModel(state: state)
    }

    func testKeysAskForCommands() {
        var screen = model()
        XCTAssertEqual(screen.handle(.character("n"), width: 80, height: 10), .loadMore)
        XCTAssertEqual(screen.handle(.character("r"), width: 80, height: 10), .reload)
        XCTAssertEqual(screen.handle(.character("q"), width: 80, height: 10), .quit)
        XCTAssertEqual(screen.handle(.interrupt, width: 80, height: 10), .quit)
        XCTAssertNil(screen.handle(.character("z"), width: 80, height: 10))
    }

    func testScrollKeysMoveWithinTheContent() {
        var screen = model()
        let (width, height) = (80, 10)
        let bottom = ScreenRenderer.maxScroll(screen.state, width: width, height: height)
        XCTAssertEqual(bottom, 21 - 8)
        _ = screen.handle(.character("k"), width: width, height: height)
        XCTAssertEqual(screen.state.scroll, 0, "cannot scroll above the top")
        _ = screen.handle(.character("j"), width: width, height: height)
        _ = screen.handle(.down, width: width, height: height)
        XCTAssertEqual(screen.state.scroll, 2)
        _ = screen.handle(.up, width: width, height: height)
        XCTAssertEqual(screen.state.scroll, 1)
        _ = screen.handle(.pageDown, width: width, height: height)
        XCTAssertEqual(screen.state.scroll, 8)
        _ = screen.handle(.pageDown, width: width, height: height)
        XCTAssertEqual(screen.state.scroll, bottom)
        _ = screen.handle(.pageUp, width: width, height: height)
        XCTAssertEqual(screen.state.scroll, bottom - 7)
        _ = screen.handle(.home, width: width, height: height)
        XCTAssertEqual(screen.state.scroll, 0)
        _ = screen.handle(.end, width: width, height: height)
        XCTAssertEqual(screen.state.scroll, bottom)
    }

    func testClampAfterTheContentShrank() {
        var screen = model()
        screen.state.scroll = 12
        screen.state.sections = []
        screen.clampScroll(width: 80, height: 10)
        XCTAssertEqual(screen.state.scroll, 0)
    }

    func testTagsPromptEditsThenAsksForTheNewTags() {
        var screen = model()
        XCTAssertNil(screen.handle(.character("t"), width: 80, height: 10))
        XCTAssertEqual(screen.state.prompt, "sea")
        for key: Key in [.backspace, .backspace, .backspace, .character("c"), .character("a"), .character("q"), .character("t")] {
            XCTAssertNil(screen.handle(key, width: 80, height: 10), "keys type while prompting")
        }
        XCTAssertEqual(screen.state.prompt, "caqt")
        XCTAssertEqual(screen.handle(.enter, width: 80, height: 10), .changeTags("caqt"))
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
}
