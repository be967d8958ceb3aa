import Foundation
import HTTPWire
import XCTest

/// The inflater against bodies compressed by zlib (`scripts/make-compression-fixtures.py`).
final class InflaterTests: XCTestCase {
    private static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/compression")

    private func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
    }

    func testEveryZlibOutputDecodesToTheOriginal() throws {
        let plain = try fixture("plain.txt")
        let cases: [(String, Inflater.Coding)] = [
            ("plain.gzip-9-named.gz", .gzip), ("plain.gzip-1.gz", .gzip), ("plain.gzip-0-stored.gz", .gzip),
            ("plain.two-members.gz", .gzip), ("plain.zlib-6.deflate", .deflate), ("plain.raw-9.deflate", .deflate),
        ]
        for (name, coding) in cases {
            XCTAssertEqual(try Inflater.decode(try fixture(name), coding: coding, limit: 1 << 20), plain, name)
        }
        XCTAssertEqual(try Inflater.decode(try fixture("empty.gz"), coding: .gzip, limit: 0), [])
    }

    func testADecompressionBombStopsAtTheLimit() throws {
        let bomb = try fixture("zeros-64mb.gz")
        XCTAssertLessThan(bomb.count, 100_000)
        XCTAssertThrowsError(try Inflater.decode(bomb, coding: .gzip, limit: 1 << 20)) { error in
            XCTAssertEqual(error as? HTTPWireError, .bodyTooLarge(limit: 1 << 20))
        }
    }

    func testCorruptionIsDetected() throws {
        var flipped = try fixture("plain.gzip-9-named.gz")
        flipped[flipped.count - 6] ^= 0x01 // inside the CRC-32
        XCTAssertThrowsError(try Inflater.decode(flipped, coding: .gzip, limit: 1 << 20)) { error in
            guard case .invalidContentCoding? = error as? HTTPWireError else { return XCTFail("\(error)") }
        }
        var zlib = try fixture("plain.zlib-6.deflate")
        zlib[zlib.count - 1] ^= 0x01 // inside the Adler-32
        XCTAssertThrowsError(try Inflater.decode(zlib, coding: .deflate, limit: 1 << 20))
        let truncated = Array(try fixture("plain.gzip-1.gz").prefix(1000))
        XCTAssertThrowsError(try Inflater.decode(truncated, coding: .gzip, limit: 1 << 20))
        XCTAssertThrowsError(try Inflater.decode(Array("not gzip".utf8), coding: .gzip, limit: 1 << 20))
    }

    func testCodingNames() {
        XCTAssertEqual(Inflater.Coding(name: "GZIP"), .gzip)
        XCTAssertEqual(Inflater.Coding(name: "x-gzip"), .gzip)
        XCTAssertEqual(Inflater.Coding(name: "deflate"), .deflate)
        XCTAssertNil(Inflater.Coding(name: "br"))
    }
}
