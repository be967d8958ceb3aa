import FeedServer
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// A streamed body's chunks come back to the exchange once the consumer let go of them (it
/// asked for the next one), and later body bytes are decoded into their buffers instead of new
/// ones; a chunk the consumer still holds is never written into (arrays copy on write), and what
/// the stream keeps for reuse stays a few chunks.
final class StreamingBufferReuseTests: HTTPClientTestCase {
    /// Whether a chunk's bytes are the route's (byte i is i % 256) from `offset` on.
    private static func follows(_ chunk: [UInt8], from offset: Int) -> Bool {
        BulkBytes.equal(chunk, BulkBytes.counting(chunk.count, from: offset))
    }

    func testADiscardingConsumerGetsItsChunksBuffersBack() throws {
        let client = self.client!
        let total = 24 << 20
        let request = HTTPClientRequest(url: url("bytes/\(total)"))
        let (read, chunks, intact, spares) = try run { () async throws -> (Int, Int, Bool, (taken: Int, reused: Int)) in
            let response = try await client.stream(request)
            var read = 0
            var chunks = 0
            var intact = true
            for try await chunk in response.body {
                intact = intact && Self.follows(chunk, from: read)
                read += chunk.count
                chunks += 1
            }
            return (read, chunks, intact, response.body.lifetime.stream.spares)
        }
        XCTAssertEqual(read, total)
        XCTAssertTrue(intact, "every byte in order, through reused buffers")
        XCTAssertGreaterThan(chunks, 10)
        XCTAssertGreaterThan(spares.taken, 0, "the exchange took chunks back (\(spares) of \(chunks) chunks)")
        XCTAssertGreaterThan(spares.reused, 0, "and read into their buffers in place (\(spares) of \(chunks) chunks)")
        XCTAssertLessThanOrEqual(spares.reused, spares.taken)
    }

    /// A consumer that keeps every chunk: the spares the exchange takes back are all still
    /// shared, so none is written into, and every kept chunk still holds its own bytes.
    func testChunksTheConsumerKeepsAreNeverWrittenInto() throws {
        let client = self.client!
        let total = 8 << 20
        let request = HTTPClientRequest(url: url("bytes/\(total)"))
        let (kept, spares) = try run { () async throws -> ([[UInt8]], (taken: Int, reused: Int)) in
            let response = try await client.stream(request)
            var kept: [[UInt8]] = []
            for try await chunk in response.body { kept.append(chunk) }
            return (kept, response.body.lifetime.stream.spares)
        }
        XCTAssertEqual(kept.reduce(0) { $0 + $1.count }, total)
        var offset = 0
        for (index, chunk) in kept.enumerated() {
            XCTAssertTrue(Self.follows(chunk, from: offset), "chunk \(index) kept its bytes")
            offset += chunk.count
        }
        XCTAssertGreaterThan(spares.taken, 0, "the exchange asked for the kept chunks back")
        XCTAssertEqual(spares.reused, 0, "and wrote into none of them")
    }

    /// A close-delimited body is read straight into the spares as well, and ends with the
    /// connection's close, whole.
    func testACloseDelimitedBodyIsReadIntoTheSparesToItsEnd() throws {
        let client = self.client!
        let total = 10_485_760
        let request = HTTPClientRequest(url: url("until-close/\(total)"))
        let (read, intact, spares) = try run { () async throws -> (Int, Bool, (taken: Int, reused: Int)) in
            let response = try await client.stream(request)
            var read = 0
            var intact = true
            for try await chunk in response.body {
                intact = intact && BulkBytes.all(UInt8(ascii: "u"), in: chunk)
                read += chunk.count
            }
            return (read, intact, response.body.lifetime.stream.spares)
        }
        XCTAssertEqual(read, total, "the whole body, ended by the close")
        XCTAssertTrue(intact)
        XCTAssertGreaterThan(spares.reused, 0, "read into given-back buffers (\(spares))")
    }

    /// A spare shrunk by a short read is grown back (a copy of the bytes added) only as far as
    /// the last read earns: a peer sending little at a time is read into the buffers as they are.
    func testASpareIsGrownBackOnlyAsFarAsTheLastReadEarns() {
        let whole = SocketExchange.bodyReadChunk
        XCTAssertEqual(SocketExchange.refillLimit(after: whole / 4, into: whole), whole, "a quarter of a read: all of it")
        XCTAssertEqual(SocketExchange.refillLimit(after: 65_536, into: 65_536), 131_072, "a full small buffer: twice that")
        XCTAssertEqual(SocketExchange.refillLimit(after: whole / 2, into: whole / 2), whole, "never past the read size")
        XCTAssertEqual(SocketExchange.refillLimit(after: 1_000, into: 65_536), 1_000, "a trickle: not past what came")
    }

    /// What the stream keeps for reuse is let go of when the body ends, and never more than
    /// `spareLimit` chunks besides the one the reader holds.
    func testTheSparesAreBoundedAndLetGoOfAtTheEnd() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("bytes/\(4 << 20)"))
        let (most, atEnd) = try run { () async throws -> (Int, Int) in
            let response = try await client.stream(request)
            let stream = response.body.lifetime.stream
            var most = 0
            for try await _ in response.body { most = max(most, stream.keptForReuse) }
            return (most, stream.keptForReuse)
        }
        XCTAssertGreaterThan(most, 0, "chunks were kept for reuse")
        XCTAssertLessThanOrEqual(most, ResponseBodyStream.spareLimit + 1)
        XCTAssertEqual(atEnd, 0, "and let go of at the body's end")
    }
}
