import Foundation
import HTTPWire
import TestSupport
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

    // MARK: Fed in pieces

    /// Feeds `input` in pieces of the sizes `sizes` gives (cycling), taking at most `step` bytes
    /// a call, and returns what came out with the largest single step.
    private func inflate(_ input: [UInt8], coding: Inflater.Coding, limit: Int = 1 << 30, sizes: [Int],
                         step: Int = 16 << 10) throws(HTTPWireError) -> (output: [UInt8], largestStep: Int) {
        var stream = InflateStream(coding: coding, limit: limit)
        var output: [UInt8] = [], largest = 0, offset = 0, turn = 0
        func drain() throws(HTTPWireError) {
            while case let chunk = try stream.next(maximum: step), !chunk.isEmpty {
                largest = max(largest, chunk.count)
                output += chunk
            }
        }
        while offset < input.count {
            let size = max(1, sizes[turn % sizes.count])
            stream.feed(input[offset..<min(input.count, offset + size)])
            offset += size
            turn += 1
            try drain()
        }
        stream.finishInput()
        try drain()
        XCTAssertTrue(stream.isFinished)
        return (output, largest)
    }

    func testFedInPiecesEveryZlibOutputDecodesToTheOriginalInBoundedSteps() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        let plain = try fixture("plain.txt")
        let cases: [(String, Inflater.Coding)] = [
            ("plain.gzip-9-named.gz", .gzip), ("plain.gzip-1.gz", .gzip), ("plain.gzip-0-stored.gz", .gzip),
            ("plain.two-members.gz", .gzip), ("plain.zlib-6.deflate", .deflate), ("plain.raw-9.deflate", .deflate),
        ]
        for (name, coding) in cases {
            let input = try fixture(name)
            for sizes in [[1], [7, 1, 300], [4096], [input.count]] {
                let (output, largest) = try inflate(input, coding: coding, sizes: sizes, step: 4096)
                XCTAssertEqual(output, plain, "\(name) in pieces of \(sizes)")
                XCTAssertLessThanOrEqual(largest, 4096 + 258, "each step stays near its maximum")
            }
        }
        XCTAssertEqual(try inflate(try fixture("empty.gz"), coding: .gzip, limit: 0, sizes: [3]).output, [])
    }

    func testFedInPiecesABombStopsAtTheLimitHavingHeldOneStep() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        let bomb = try fixture("zeros-64mb.gz")
        var stream = InflateStream(coding: .gzip, limit: 1 << 20)
        stream.feed(bomb)
        var decoded = 0
        do {
            while case let chunk = try stream.next(maximum: 64 << 10), !chunk.isEmpty {
                XCTAssertLessThanOrEqual(chunk.count, (64 << 10) + 258)
                decoded += chunk.count
            }
            XCTFail("the bomb decoded whole")
        } catch {
            XCTAssertEqual(error, .bodyTooLarge(limit: 1 << 20))
        }
        XCTAssertLessThanOrEqual(decoded, 1 << 20)
        XCTAssertGreaterThan(decoded, (1 << 20) - (64 << 10) - 258, "it went right up to the limit")
        // A limit raised between steps (a ratio to the bytes so far) lets it go on.
        var raised = InflateStream(coding: .gzip, limit: 10)
        raised.feed(bomb.prefix(1000))
        XCTAssertThrowsError(try raised.next(maximum: 1 << 20))
        var growing = InflateStream(coding: .gzip, limit: 0)
        var total = 0
        for piece in stride(from: 0, to: 5_000, by: 1000) {
            growing.feed(bomb[piece..<(piece + 1000)])
            growing.limit = growing.bytesIn * 2_000
            while case let chunk = try growing.next(maximum: 1 << 20), !chunk.isEmpty { total += chunk.count }
        }
        XCTAssertGreaterThan(total, 1_000_000, "each raise let the bomb go on")
        XCTAssertEqual(growing.bytesOut, total)
    }

    func testCutOrCorruptDataFedInPiecesFailsTyped() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        let gzip = try fixture("plain.gzip-9-named.gz")
        XCTAssertThrowsError(try inflate(Array(gzip.dropLast(3)), coding: .gzip, sizes: [500])) { error in
            guard case .truncatedBody? = error as? HTTPWireError else { return XCTFail("\(error)") }
        }
        var flipped = gzip
        flipped[flipped.count - 6] ^= 0x01
        XCTAssertThrowsError(try inflate(flipped, coding: .gzip, sizes: [500])) { error in
            guard case .invalidContentCoding? = error as? HTTPWireError else { return XCTFail("\(error)") }
        }
        var zlib = try fixture("plain.zlib-6.deflate")
        zlib[zlib.count - 1] ^= 0x01
        XCTAssertThrowsError(try inflate(zlib, coding: .deflate, sizes: [1])) { error in
            guard case .invalidContentCoding? = error as? HTTPWireError else { return XCTFail("\(error)") }
        }
    }

    /// Fuzz-style: zlib's outputs with bytes flipped, dropped or inserted, and random bytes, fed in
    /// random pieces. Each fails with an `HTTPWireError` or decodes, never crashes, and the result
    /// is the same as decoding the whole input at once (seeded, so a failure repeats).
    func testMangledInputFailsTypedAndAlikeWholeOrInPieces() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        var random = SeededGenerator(seed: 46)
        let sources: [([UInt8], Inflater.Coding)] = [
            (try fixture("plain.gzip-1.gz"), .gzip), (try fixture("plain.zlib-6.deflate"), .deflate),
            (try fixture("plain.raw-9.deflate"), .deflate), (try fixture("plain.gzip-0-stored.gz"), .gzip),
        ]
        var failures = 0
        for round in 0..<160 {
            let (source, coding) = sources[round % sources.count]
            var input = Array(source.prefix(2_000 + Int(random.next() % 6_000)))
            switch round % 4 {
            case 0: for _ in 0..<1 + Int(random.next() % 4) { input[Int(random.next() % UInt64(input.count))] ^= UInt8(1 << (random.next() % 8)) }
            case 1: input.remove(at: Int(random.next() % UInt64(input.count)))
            case 2: input.insert(UInt8(truncatingIfNeeded: random.next()), at: Int(random.next() % UInt64(input.count)))
            default: input = (0..<input.count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            let whole = Result { () throws(HTTPWireError) -> [UInt8] in try Inflater.decode(input, coding: coding, limit: 1 << 20) }
            let sizes = (0..<3).map { _ in 1 + Int(random.next() % 700) }
            let pieces = Result { () throws(HTTPWireError) -> [UInt8] in
                var stream = InflateStream(coding: coding, limit: 1 << 20)
                var output: [UInt8] = []
                var offset = 0
                while offset < input.count {
                    let size = sizes[offset % sizes.count]
                    stream.feed(input[offset..<min(input.count, offset + size)])
                    offset += size
                    while case let chunk = try stream.next(maximum: 1000), !chunk.isEmpty { output += chunk }
                }
                stream.finishInput()
                while case let chunk = try stream.next(maximum: 1000), !chunk.isEmpty { output += chunk }
                return output
            }
            switch (whole, pieces) {
            case (.success(let a), .success(let b)): XCTAssertEqual(a, b, "round \(round)")
            case (.failure(let a), .failure(let b)):
                failures += 1
                XCTAssertEqual(a, b, "round \(round)")
            default: XCTFail("round \(round): whole \(whole), in pieces \(pieces)")
            }
        }
        XCTAssertGreaterThan(failures, 100, "most mangled inputs are refused")
    }

    func testCodingNames() {
        XCTAssertEqual(Inflater.Coding(name: "GZIP"), .gzip)
        XCTAssertEqual(Inflater.Coding(name: "x-gzip"), .gzip)
        XCTAssertEqual(Inflater.Coding(name: "deflate"), .deflate)
        XCTAssertNil(Inflater.Coding(name: "br"))
    }
}
