@testable import FeedServer
import Foundation
import XCTest

/// The page writer against references outside it: Foundation's JSON parser reads back what it
/// escaped, `String(format:)` formats the same digits, and a plain replacement escapes HTML.
final class FeedJSONWriterTests: XCTestCase {
    private let samples = [
        "", "plain words", "a/b \"quoted\" back\\slash", "tab\tnew\nline\rreturn", "\u{01}\u{1F}\u{7F}",
        "Jürgen Weiß", "Café near the 🌿", "❄️ flags 🇫🇷 and ZWJ 👩‍👩‍👧", "it's <b>&amp;</b> 'x'", "日本語テキスト",
    ]

    private func written(_ write: (inout FeedJSONWriter) -> Void) -> String {
        var writer = FeedJSONWriter(capacity: 16)
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// What a JSON parser reads from `contents` as the contents of a string.
    private func parsed(_ contents: String) throws -> String {
        let array = try JSONSerialization.jsonObject(with: Data("[\"\(contents)\"]".utf8)) as? [String]
        return try XCTUnwrap(array?.first)
    }

    func testEscapedTextReadsBackAsTheTextWithFlickrsEscapes() throws {
        for sample in samples {
            let escaped = written { $0.escaped(sample) }
            XCTAssertEqual(try parsed(escaped), sample)
            XCTAssertFalse(escaped.unicodeScalars.contains { $0.value >= 0x80 }, "non-ASCII left in \(escaped)")
            XCTAssertFalse(escaped.contains("/") && !escaped.contains("\\/"), "a bare / in \(escaped)")
        }
        XCTAssertEqual(written { $0.escaped("a/😀") }, #"a\/\ud83d\ude00"#)
    }

    func testTheInvalidApostropheEscapeIsWrittenOnlyWhenAsked() throws {
        XCTAssertEqual(written { $0.escaped("Don't") }, "Don't")
        let flickr = written { $0.escaped("Don't", invalidApostropheEscape: true) }
        XCTAssertEqual(flickr, #"Don\'t"#)
        XCTAssertThrowsError(try parsed(flickr), "\\' is not JSON, as in real feeds")
    }

    func testHTMLEscapingMatchesAPlainReplacementThenJSON() throws {
        for sample in samples {
            let reference = sample
                .replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&#039;")
            XCTAssertEqual(try parsed(written { $0.escapedHTML(sample) }), reference)
        }
    }

    func testDigitsMatchStringFormat() {
        for value: Int64 in [0, 7, 42, 999, 1_000, 9_999, 10_000, 54_000_000_123, -5, -123] {
            for width in [0, 2, 4, 10] {
                XCTAssertEqual(written { $0.decimal(value, width: width) }, String(format: "%0*lld", width, value))
            }
        }
        for value: UInt64 in [0, 0xA, 0xFF_FFFF_FFFF, 0x1234_5678_9A, .max] {
            XCTAssertEqual(written { $0.hex(value, width: 10) }, String(format: "%010llx", value))
            XCTAssertEqual(written { $0.decimal(value) }, String(format: "%llu", value))
        }
    }

    func testDatesMatchFoundationsCalendar() throws {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for seconds: Int64 in [0, 951_782_400, 1_767_225_600, 1_767_225_600 + 400 * 86_400 + 3_661, 4_107_542_399, -86_401] {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            XCTAssertEqual(written { $0.isoDateTime(seconds) }, formatter.string(from: date))
            let pacific = ISO8601DateFormatter()
            pacific.timeZone = TimeZone(secondsFromGMT: -8 * 3_600)
            XCTAssertEqual(written { $0.isoDateTime(seconds, offsetHours: -8) }, pacific.string(from: date))
        }
    }
}
