import PhotoFeedViewerCore
import TestSupport
import XCTest

final class KeyDecoderTests: LeakCheckingTestCase {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    func testLettersControlKeysAndUTF8() {
        XCTAssertEqual(keys("nq"), [.character("n"), .character("q")])
        XCTAssertEqual(keys("\r\n\u{7F}\u{8}\u{3}"), [.enter, .enter, .backspace, .backspace, .interrupt])
        XCTAssertEqual(keys("é東"), [.character("é"), .character("東")])
        XCTAssertEqual(keys("\u{1}\u{2}a"), [.character("a")], "other control bytes are ignored")
    }

    func testEscapeSequences() {
        XCTAssertEqual(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D"), [.up, .down, .right, .left])
        XCTAssertEqual(keys("\u{1B}OA\u{1B}OB"), [.up, .down])
        XCTAssertEqual(keys("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~"), [.pageUp, .pageDown, .home, .end, .home, .end])
        XCTAssertEqual(keys("\u{1B}[1;5Aj"), [.character("j")], "an unknown sequence is skipped whole")
        XCTAssertEqual(keys("\u{1B}"), [.escape])
        XCTAssertEqual(keys("\u{1B}x"), [.escape, .character("x")])
    }

    func testASequenceSplitAcrossReadsIsKeptUntilComplete() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B, UInt8(ascii: "[")]), [])
        XCTAssertEqual(decoder.feed([UInt8(ascii: "6")]), [])
        XCTAssertEqual(decoder.feed([UInt8(ascii: "~"), UInt8(ascii: "k")]), [.pageDown, .character("k")])
        XCTAssertEqual(decoder.feed([0xE6, 0x9D]), [])
        XCTAssertEqual(decoder.feed([0xB1]), [.character("東")])
    }

    func testInvalidUTF8IsDroppedWithoutStoppingTheRest() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0xFF, 0xC0, UInt8(ascii: "q")]), [.character("q")])
        XCTAssertEqual(decoder.feed([0xC3, UInt8(ascii: "a")]), [.character("a")], "a broken sequence drops only its lead byte")
        XCTAssertEqual(decoder.feed([0xE6, 0x9D, 0x1B, UInt8(ascii: "["), UInt8(ascii: "A")]), [.up])
    }
}
