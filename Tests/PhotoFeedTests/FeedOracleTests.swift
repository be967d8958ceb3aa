import Foundation
import PhotoFeed
import TestSupport
import XCTest

/// The feed fuzz target's oracle (`FeedOracle.swift`, compiled here through a symbolic link to
/// `Sources/FuzzFeedSanitizer/FeedOracle.swift`): what it takes for JSON, and that it reports
/// each broken invariant.
final class FeedOracleTests: LeakCheckingTestCase {
    private func acceptedByJSONSerialization(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    /// The input that stopped the target after two seconds: `JSONSerialization` reads it as
    /// UTF-16BE (a leading NUL), `FeedSanitizer` as UTF-8, so it is no JSON text for the oracle.
    func testTheFirstCrashInputIsNotJSONTextThoughJSONSerializationReadsIt() {
        let crash: [UInt8] = [0x00, 0x32, 0xFF]
        XCTAssertTrue(acceptedByJSONSerialization(crash))
        XCTAssertFalse(FeedOracle.isJSONText(Data(crash)))
        XCTAssertEqual(FeedOracle.violations(of: Data(crash)), [])
    }

    /// Valid UTF-8 is not enough: UTF-16BE `"\\"` is valid UTF-8 too, and read as UTF-8 it holds
    /// an invalid escape (`\` before a NUL) that the sanitizer rightly repairs.
    func testUTF16TextThatIsAlsoValidUTF8IsNotJSONText() throws {
        let utf16: [UInt8] = [0x00, 0x22, 0x00, 0x5C, 0x00, 0x5C, 0x00, 0x22]
        XCTAssertTrue(acceptedByJSONSerialization(utf16))
        XCTAssertNotNil(String(validating: utf16, as: UTF8.self))
        XCTAssertNotEqual(try FeedSanitizer.sanitize(Data(utf16)), Data(utf16))
        XCTAssertFalse(FeedOracle.isJSONText(Data(utf16)))
        XCTAssertEqual(FeedOracle.violations(of: Data(utf16)), [])
    }

    /// The second: a backslash between a UTF-8 lead byte and its continuation byte. The
    /// reference repair, dropping it, makes valid JSON of bytes that are no UTF-8, which
    /// `sanitize` refuses as it documents; the repair invariant holds for UTF-8 input only.
    func testInvalidUTF8ThatTheRepairWouldMakeValidIsNoRepairableJSON() throws {
        let crash = Data([0x22, 0xCD, 0x5C, 0xA2, 0x22])
        XCTAssertTrue(FeedOracle.isJSONText(try XCTUnwrap(FeedOracle.referenceRepair(crash))))
        XCTAssertThrowsError(try FeedSanitizer.sanitize(crash))
        XCTAssertFalse(FeedOracle.isUTF8Text(crash))
        XCTAssertEqual(FeedOracle.violations(of: crash), [])
    }

    func testAByteOrderMarkOrInvalidUTF8IsNotJSONTextAndPlainUTF8Is() {
        XCTAssertTrue(acceptedByJSONSerialization([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        XCTAssertFalse(FeedOracle.isJSONText(Data([0xEF, 0xBB, 0xBF] + Array("{}".utf8))))
        XCTAssertFalse(FeedOracle.isJSONText(Data([0x22, 0xC3, 0x22])))
        XCTAssertTrue(FeedOracle.isJSONText(Data(#"{"a":"é \u00e9","b":[1,true,null]}"#.utf8)))
        XCTAssertFalse(FeedOracle.isJSONText(Data(#"{"a":"\q"}"#.utf8)))
    }

    func testEveryCommittedSeedKeepsTheInvariants() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/seeds/feed")
        let files = try FileManager.default.contentsOfDirectory(at: seeds, includingPropertiesForKeys: nil)
        let names = Set(files.map(\.lastPathComponent))
        XCTAssertTrue(names.isSuperset(of: ["utf16-detected-by-jsonserialization.bin", "backslash-inside-a-utf8-sequence.json"]))
        for file in files {
            XCTAssertEqual(FeedOracle.violations(of: try Data(contentsOf: file)), [], file.lastPathComponent)
        }
    }

    func testTheRealSanitizerKeepsJSONAndRepairsInvalidEscapes() {
        XCTAssertEqual(FeedOracle.violations(of: Data(#"{"a":"it\'s \"ok\""}"#.utf8)), [])
        XCTAssertEqual(FeedOracle.referenceRepair(Data(#"{"a":"it\'s \u12"}"#.utf8)), Data(#"{"a":"it's u12"}"#.utf8))
    }

    func testEachBrokenInvariantIsReported() {
        let valid = Data(#"{"a":"b"}"#.utf8)
        let escaped = Data(#"{"a":"\q"}"#.utf8)
        XCTAssertEqual(FeedOracle.violations(of: valid, sanitize: { $0 + Data(" ".utf8) }),
                       [.validJSONChanged, .differsFromReferenceRepair])
        XCTAssertEqual(FeedOracle.violations(of: escaped, sanitize: { _ in nil }), [.repairableJSONRejected])
        XCTAssertEqual(FeedOracle.violations(of: escaped, sanitize: { $0 }), [.differsFromReferenceRepair])
    }
}
