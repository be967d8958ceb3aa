import FeedServer
import Foundation
import PhotoFeed
import TestSupport
import XCTest

final class RemovedEscapeCharactersTests: LeakCheckingTestCase {
    func testRemovesEveryEscapedQuoteThenEveryBackslash() {
        XCTAssertEqual(#"I\'ll"#.removedEscapeCharacters, "I'll")
        XCTAssertEqual(#"a\"b\\c\/d\u00e9\n"#.removedEscapeCharacters, "abc/du00e9n")
        XCTAssertEqual(#"\\""#.removedEscapeCharacters, "")
        XCTAssertEqual(#"<a href=\"x\">"#.removedEscapeCharacters, "<a href=x>")
        XCTAssertEqual("no escapes".removedEscapeCharacters, "no escapes")
        XCTAssertEqual("".removedEscapeCharacters, "")
    }

    func testMatchesTheLiteralTwoStepReplacement() {
        var random = SplitMix64(seed: 7)
        let alphabet: [Character] = ["\\", "\"", "'", "a", "u", "/", "é"]
        for _ in 0..<300 {
            let text = String((0..<Int(random.next(upperBound: 12))).map { _ in
                alphabet[Int(random.next(upperBound: UInt64(alphabet.count)))]
            })
            let literal = text.replacingOccurrences(of: "\\\"", with: "").replacingOccurrences(of: "\\", with: "")
            XCTAssertEqual(text.removedEscapeCharacters, literal)
            XCTAssertFalse(text.removedEscapeCharacters.contains("\\"))
        }
    }

    func testTheDocumentsStrippingLosesWhatTheSanitizerKeeps() throws {
        let feed = #"{"a":"caf\u00e9 \"x\" I\'ll"}"#
        let stripped = feed.removedEscapeCharacters
        XCTAssertEqual(stripped, #"{"a":"cafu00e9 x I'll"}"#)
        let repaired = try FeedSanitizer.sanitize(Data(feed.utf8))
        XCTAssertEqual(try JSONDecoder().decode([String: String].self, from: repaired)["a"], "café \"x\" I'll")
    }
}
