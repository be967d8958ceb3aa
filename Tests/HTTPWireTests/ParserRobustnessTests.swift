import HTTPWire
import XCTest

/// Mutated and random input must end in a parsed message, a need for more bytes, or an `HTTPWireError`
/// (the parsers throw only that type), never a crash.
final class ParserRobustnessTests: XCTestCase {
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    private let samples = [
        "GET /echo?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nbody",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;e=1\r\nabc\r\n0\r\nT: v\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
    ]

    func testMutatedMessagesNeverEscapeTypedErrors() {
        var random = Generator(state: 7)
        var outcomes = (parsed: 0, incomplete: 0, rejected: 0)
        for round in 0..<4_000 {
            var bytes = Array(samples[round % samples.count].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            do {
                let parsed: Bool
                if bytes.starts(with: "HTTP/".utf8) {
                    var parser = HTTPResponseParser(requestMethod: "GET", maxHeaderBytes: 256, maxBodyBytes: 1_024)
                    parsed = try parser.feed(bytes) != nil
                } else {
                    var parser = HTTPRequestParser(maxHeaderBytes: 256, maxBodyBytes: 1_024)
                    parser.feed(bytes)
                    parsed = try parser.nextRequest() != nil
                }
                if parsed { outcomes.parsed += 1 } else { outcomes.incomplete += 1 }
            } catch {
                outcomes.rejected += 1
            }
        }
        XCTAssertGreaterThan(outcomes.parsed, 0)
        XCTAssertGreaterThan(outcomes.rejected, 0)
        XCTAssertEqual(outcomes.parsed + outcomes.incomplete + outcomes.rejected, 4_000)
    }

    func testRandomBytesFedInPieces() {
        var random = Generator(state: 11)
        var rejected = 0
        for _ in 0..<500 {
            var parser = HTTPRequestParser(maxHeaderBytes: 512)
            do {
                for _ in 0..<8 {
                    parser.feed((0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
                    while try parser.nextRequest() != nil {}
                }
                try parser.finishAtEndOfStream()
            } catch {
                rejected += 1
            }
        }
        XCTAssertGreaterThan(rejected, 450)
    }
}
