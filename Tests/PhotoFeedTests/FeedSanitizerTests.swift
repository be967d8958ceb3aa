import FeedServer
import Foundation
import PhotoFeed
import TestSupport
import XCTest

final class FeedSanitizerTests: LeakCheckingTestCase {
    private func sanitized(_ text: String) throws -> String {
        String(decoding: try FeedSanitizer.sanitize(Data(text.utf8)), as: UTF8.self)
    }

    private func decodedValue(_ json: Data) throws -> String {
        try XCTUnwrap(JSONDecoder().decode([String: String].self, from: json)["a"])
    }

    private func assertSanitizeThrows(
        _ bytes: [UInt8], _ expected: FeedSanitizerError, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try FeedSanitizer.sanitize(Data(bytes)), file: file, line: line) { error in
            XCTAssertEqual(error as? FeedSanitizerError, expected, file: file, line: line)
        }
    }

    func testEveryValidEscapeIsKeptByteForByte() throws {
        let input = Data(#"{"a":"q\" b\\ s\/ \b\f\n\r\t \u00e9 \uD83D\uDE00 \u0130"}"#.utf8)
        let output = try FeedSanitizer.sanitize(input)
        XCTAssertEqual(output, input)
        XCTAssertEqual(try decodedValue(output), "q\" b\\ s/ \u{8}\u{C}\n\r\t é 😀 İ")
    }

    func testOnlyTheBackslashOfAnInvalidEscapeIsDropped() throws {
        XCTAssertEqual(try sanitized(#"{"a":"I\'ll"}"#), #"{"a":"I'll"}"#)
        XCTAssertEqual(try sanitized(#"{"a":"\x41 \q \a \0 \é \'"}"#), #"{"a":"x41 q a 0 é '"}"#)
        XCTAssertEqual(try sanitized(#"{"a":"\\\'"}"#), #"{"a":"\\'"}"#)
        XCTAssertEqual(try decodedValue(FeedSanitizer.sanitize(Data(#"{"a":"it\'s \"ok\" \u00e9\'"}"#.utf8))), "it's \"ok\" é'")
    }

    func testAStringEndingInABackslashDecodesWhereTheDocumentsStrippingBreaks() throws {
        let feed = #"{"a":"C:\\"}"#
        XCTAssertEqual(try sanitized(feed), feed)
        XCTAssertEqual(try decodedValue(FeedSanitizer.sanitize(Data(feed.utf8))), "C:\\")

        let stripped = feed.removedEscapeCharacters
        XCTAssertEqual(stripped, #"{"a":"C:}"#)
        XCTAssertThrowsError(try JSONSerialization.jsonObject(with: Data(stripped.utf8)))
    }

    func testABackslashAtTheVeryEndIsATypedError() {
        assertSanitizeThrows(Array(#"{"a":"abc\"#.utf8), .trailingBackslash(offset: 9))
        assertSanitizeThrows(Array(#"jsonFlickrFeed({"a":"abc\)"#.utf8), .trailingBackslash(offset: 24))
    }

    func testAnUnclosedStringIsATypedError() {
        assertSanitizeThrows(Array(#"{"a":"abc\"}"#.utf8), .unterminatedString(offset: 5))
        assertSanitizeThrows(Array(#"{"a"#.utf8), .unterminatedString(offset: 1))
    }

    func testAnIncompleteUnicodeEscapeLosesItsBackslashAndKeepsTheRest() throws {
        // Found by fuzzing: this input used to throw, losing the whole feed.
        XCTAssertEqual(try sanitized(#"{"s":"\u\38dd"}"#), #"{"s":"u38dd"}"#)
        XCTAssertEqual(try sanitized(#"{"a":"\u12"}"#), #"{"a":"u12"}"#)
        XCTAssertEqual(try sanitized(#"{"a":"x\u12G4"}"#), #"{"a":"xu12G4"}"#)
        XCTAssertEqual(try sanitized(#"{"a":"\u"}"#), #"{"a":"u"}"#)
        XCTAssertEqual(try decodedValue(FeedSanitizer.sanitize(Data(#"{"a":"\u00e9\u0"}"#.utf8))), "\u{e9}u0")
        assertSanitizeThrows(Array(#"{"a":"\u"#.utf8), .unterminatedString(offset: 5))
    }

    func testEscapesOutsideStringsAreCopiedAsTheyAre() throws {
        let input = Data(#"{"a":"x"} \q \'"#.utf8)
        XCTAssertEqual(try FeedSanitizer.sanitize(input), input)
        XCTAssertEqual(try sanitized(#"{"a\'":"x"} \' "\'""#), #"{"a'":"x"} \' "'""#)
    }

    func testJSONPWrapperIsRemovedWithWhitespaceAndSemicolon() throws {
        let body = #"{"a":"I\'m"}"#
        let repaired = #"{"a":"I'm"}"#
        XCTAssertEqual(try sanitized("jsonFlickrFeed(\(body))"), repaired)
        XCTAssertEqual(try sanitized("jsonFlickrFeed(\(body));"), repaired)
        XCTAssertEqual(try sanitized(" \n\tjsonFlickrFeed (\(body)) ;\r\n "), repaired)
        XCTAssertEqual(try sanitized("jsonFlickrFeed( \n\(body)\n )"), " \n\(repaired)\n ")
        XCTAssertEqual(try sanitized(#"jsonFlickrFeed({"a":"b"});"#), #"{"a":"b"}"#)
        XCTAssertEqual(try sanitized(#"jsonFlickrFeed({"a":"(x)"})"#), #"{"a":"(x)"}"#)
    }

    func testBrokenWrappersAreTypedErrors() {
        assertSanitizeThrows(Array(#"jsonFlickrFeed({"a":1}"#.utf8), .unterminatedWrapper(offset: 22))
        assertSanitizeThrows(Array(#"jsonFlickrFeed({"a":1};"#.utf8), .unterminatedWrapper(offset: 22))
        assertSanitizeThrows(Array("jsonFlickrFeed(".utf8), .unterminatedWrapper(offset: 15))
        assertSanitizeThrows(Array("jsonFlickrFeed()".utf8), .empty)
        assertSanitizeThrows(Array("jsonFlickrFeed( \n ) ;".utf8), .empty)
        assertSanitizeThrows(Array(#"jsonFlickrFeed({"a":"x)"#.utf8), .unterminatedString(offset: 20))
    }

    func testEmptyInputIsATypedError() {
        assertSanitizeThrows([], .empty)
        assertSanitizeThrows(Array(" \n\t\r ".utf8), .empty)
        XCTAssertNotNil(FeedSanitizerError.empty.errorDescription)
        XCTAssertNil(FeedSanitizerError.empty.offset)
        XCTAssertEqual(FeedSanitizerError.invalidUTF8(offset: 3).offset, 3)
    }

    func testMalformedUTF8IsATypedErrorWithItsOffset() {
        let prefix = Array(#"{"a":""#.utf8)
        let cases: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xF0, 0x80, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],
            [0xC3, 0x28], [0xE2, 0x82, 0x28],
        ]
        for bad in cases {
            assertSanitizeThrows(prefix + bad + Array(#""}"#.utf8), .invalidUTF8(offset: prefix.count))
        }
        assertSanitizeThrows(prefix + [0xE2, 0x82], .invalidUTF8(offset: prefix.count))
        assertSanitizeThrows([0xFE] + Array(#"{"a":"b"}"#.utf8), .invalidUTF8(offset: 0))
        assertSanitizeThrows(Array(#"{"a":"\"#.utf8) + [0xFC] + Array(#""}"#.utf8), .invalidUTF8(offset: 7))
    }

    func testWellFormedMultibyteUTF8PassesUnchanged() throws {
        let input = Data(#"{"a":"é € 😀 İ 苗栗 \'"}"#.utf8)
        XCTAssertEqual(try decodedValue(FeedSanitizer.sanitize(input)), "é € 😀 İ 苗栗 '")
        let valid = Data(#"{"a":"é € 😀 \u00e9"}"#.utf8)
        XCTAssertEqual(try FeedSanitizer.sanitize(valid), valid)
    }

    func testOffsetsCountFromTheStartOfASlice() {
        let whole = Data(#"xxxxx{"a":"abc\"#.utf8)
        let slice = whole[5...]
        XCTAssertThrowsError(try FeedSanitizer.sanitize(slice)) { error in
            XCTAssertEqual(error as? FeedSanitizerError, .trailingBackslash(offset: 9))
        }
    }

    func testRepairedTextRoundTripsForRandomStrings() throws {
        var random = SplitMix64(seed: 0xF1EED)
        let alphabet: [String] = ["a", "Z", " ", "'", "\"", "\\", "/", "\n", "\t", "é", "😀", "İ", "\u{1}", "<", "u", "x"]
        for _ in 0..<500 {
            let length = Int(random.next(upperBound: 24))
            let text = (0..<length).map { _ in alphabet[Int(random.next(upperBound: UInt64(alphabet.count)))] }.joined()
            let valid = try JSONEncoder().encode(["a": text])
            let flickrStyle = String(decoding: valid, as: UTF8.self).replacingOccurrences(of: "'", with: "\\'")
            let repaired = try FeedSanitizer.sanitize(Data(flickrStyle.utf8))
            XCTAssertEqual(repaired, valid)
            XCTAssertEqual(try decodedValue(repaired), text)
        }
    }
}
