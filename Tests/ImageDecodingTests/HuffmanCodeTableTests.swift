import ImageDecoding
import XCTest

final class HuffmanCodeTableTests: XCTestCase {
    /// ITU T.81 Table K.3 (luminance DC): the canonical codes built from its counts.
    func testCanonicalCodesMatchTheStandardsLuminanceDCTable() throws {
        let table = try XCTUnwrap(HuffmanCodeTable(counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
                                                   symbols: Array(0...11)))
        let expected: [(UInt32, Int)] = [(0b00, 2), (0b010, 3), (0b011, 3), (0b100, 3), (0b101, 3), (0b110, 3),
                                         (0b1110, 4), (0b11110, 5), (0b111110, 6), (0b1111110, 7),
                                         (0b11111110, 8), (0b111111110, 9)]
        XCTAssertEqual(table.codes.map(\.code), expected.map(\.0))
        XCTAssertEqual(table.codes.map(\.length), expected.map(\.1))
        XCTAssertEqual(table.bySymbol[7].code, 0b11110)
        XCTAssertEqual(table.bySymbol[7].length, 5)
        XCTAssertEqual(table.bySymbol[12].length, 0, "a symbol outside the table has no code")
    }

    /// Symbols listed out of value order: the encoder's lookup follows the symbol, not the position.
    func testBySymbolFollowsTheSymbolValue() throws {
        let table = try XCTUnwrap(HuffmanCodeTable(counts: [1, 1] + [UInt8](repeating: 0, count: 14), symbols: [9, 4]))
        XCTAssertEqual(table.bySymbol[9].code, 0b0)
        XCTAssertEqual(table.bySymbol[9].length, 1)
        XCTAssertEqual(table.bySymbol[4].code, 0b10)
        XCTAssertEqual(table.bySymbol[4].length, 2)
    }

    func testMalformedCountsAreRefused() {
        // three codes of length 1 do not fit; two would use the reserved all-ones code
        XCTAssertNil(HuffmanCodeTable(counts: [2] + [UInt8](repeating: 0, count: 15), symbols: [1, 2, 3]))
        XCTAssertNil(HuffmanCodeTable(counts: [3] + [UInt8](repeating: 0, count: 15), symbols: [1, 2, 3]))
        XCTAssertNil(HuffmanCodeTable(counts: [0, 1], symbols: [1]), "fewer than 16 counts")
    }
}
