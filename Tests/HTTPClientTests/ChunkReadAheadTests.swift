import Foundation
@testable import HTTPClient
import Synchronization
import TestSupport
import XCTest

/// `Body.chunks` read ahead of the socket: the sequence is pulled until 256 KiB wait, not
/// further while nothing is taken, and again once the writer took them down to half.
final class ChunkReadAheadTests: XCTestCase {
    private let size = 65_536

    /// How often a sequence was asked for a chunk.
    private final class Asked: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    }

    /// A sequence of `count` chunks of `size` bytes counting how often it was asked.
    private func counted(_ count: Int, asked: Asked) -> AsyncStream<[UInt8]> {
        let size = size
        return AsyncStream(unfolding: {
            asked.next() <= count ? [UInt8](repeating: 1, count: size) : nil
        })
    }

    /// Whether `asked` stays at `value` for a quarter of a second (sleeping without holding a
    /// thread of the pool the read-ahead task runs on).
    private func staysAt(_ value: Int, _ asked: Asked) async throws -> Bool {
        for _ in 0..<5 {
            try await Task.sleep(for: .milliseconds(50))
            if asked.value != value { return false }
        }
        return true
    }

    /// Whether `asked` reaches `value` within 10 seconds.
    private func reaches(_ value: Int, _ asked: Asked) async throws -> Bool {
        try await eventually { asked.value == value }
    }

    /// Whether `condition` holds within 10 seconds, polled without holding a thread.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1_000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    func testTheSequenceIsReadAheadUpToTheBoundAndAgainBelowHalfOfIt() async throws {
        let asked = Asked()
        let iterator = try XCTUnwrap(HTTPClientRequest.AsyncChunks(counted(100, asked: asked)).takeIterator())
        let first = try await iterator.nextChunk()
        XCTAssertEqual(first?.count, size)
        // Then the queue fills to the bound (256 KiB, four chunks) and stops while none is taken.
        // The first chunk went straight to the waiting writer (asked 1 + 4 times), or, when the
        // read-ahead task pulled it before the writer asked, it counted toward the bound until
        // taken (asked 4 times, three left waiting): both keep the bound.
        let ahead = HTTPClientRequest.ChunkIterator.readAhead / size
        // Settled: the count stayed put for a quarter of a second (within 10 seconds).
        var bound = asked.value
        for _ in 0..<40 {
            if try await staysAt(bound, asked) { break }
            bound = asked.value
        }
        XCTAssertTrue([ahead, 1 + ahead].contains(bound), "stopped at the bound: \(bound)")
        // Taking chunks while more than half the bound waits asks for nothing more.
        var waiting = bound - 1
        while waiting - 1 > ahead / 2 {
            XCTAssertEqual(try XCTUnwrap(iterator.readyChunk()).get()?.count, size)
            waiting -= 1
            let stillStopped = try await staysAt(bound, asked)
            XCTAssertTrue(stillStopped, "not asked above half: \(asked.value)")
        }
        // Taking the one that leaves half: it is read up to the bound again (two more).
        XCTAssertEqual(try XCTUnwrap(iterator.readyChunk()).get()?.count, size)
        let askedAgain = try await reaches(bound + ahead - ahead / 2, asked)
        XCTAssertTrue(askedAgain, "asked again: \(asked.value)")
        let stoppedAgain = try await staysAt(bound + ahead - ahead / 2, asked)
        XCTAssertTrue(stoppedAgain, "stopped at the bound again: \(asked.value)")
    }

    func testEveryChunkComesInOrderThenTheEnd() async throws {
        let chunks = AsyncStream<[UInt8]> { continuation in
            for value in 0..<40 { continuation.yield([UInt8](repeating: UInt8(value), count: value == 7 ? 0 : 40_000)) }
            continuation.finish()
        }
        let iterator = try XCTUnwrap(HTTPClientRequest.AsyncChunks(chunks).takeIterator())
        var firsts: [UInt8] = []
        while let chunk = try await iterator.nextChunk() { firsts.append(chunk[0]) }
        XCTAssertEqual(firsts, (0..<40).filter { $0 != 7 }.map(UInt8.init), "in order, the empty chunk skipped")
        let after = try await iterator.nextChunk()
        XCTAssertNil(after)
    }

    func testTheSequencesFailureComesAfterTheChunksBeforeIt() async throws {
        struct Broken: Error {}
        let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
            continuation.yield([1, 2])
            continuation.finish(throwing: Broken())
        }
        let iterator = try XCTUnwrap(HTTPClientRequest.AsyncChunks(chunks).takeIterator())
        let first = try await iterator.nextChunk()
        XCTAssertEqual(first, [1, 2])
        do {
            _ = try await iterator.nextChunk()
            XCTFail("the failure was not thrown")
        } catch {
            XCTAssertTrue(error is Broken, "\(error)")
        }
    }

    func testCancellingStopsTheReadAheadAndEndsTheSequence() async throws {
        let ended = Atomic<Bool>(false)
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        continuation.onTermination = { _ in ended.store(true, ordering: .relaxed) }
        continuation.yield([1])
        let iterator = try XCTUnwrap(HTTPClientRequest.AsyncChunks(chunks).takeIterator())
        let first = try await iterator.nextChunk()
        XCTAssertEqual(first, [1])
        iterator.cancel()
        let sequenceEnded = try await eventually { ended.load(ordering: .relaxed) }
        XCTAssertTrue(sequenceEnded, "the task reading the sequence was cancelled")
        do {
            _ = try await iterator.nextChunk()
            XCTFail("a cancelled iterator gave a chunk")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    /// The read-ahead task waits for the writer (the bound is full) when the iterator is
    /// cancelled: it asks the stream once more in the cancelled task, so a stream whose producer
    /// lives on sees the cancellation. (A cancel landing between two pulls takes the same way:
    /// `testCancellingStopsTheReadAheadAndEndsTheSequence` meets that race now and then.)
    func testCancellingWhileTheReadAheadWaitsAtTheBoundStillEndsTheSequence() async throws {
        let ended = Atomic<Bool>(false)
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        continuation.onTermination = { _ in ended.store(true, ordering: .relaxed) }
        let bound = HTTPClientRequest.ChunkIterator.readAhead / size
        for _ in 0..<(bound + 3) { continuation.yield([UInt8](repeating: 3, count: size)) }
        let iterator = try XCTUnwrap(HTTPClientRequest.AsyncChunks(chunks).takeIterator())
        let first = try await iterator.nextChunk()
        XCTAssertEqual(first?.count, size)
        // The task fills the bound and waits for the writer, outside the stream's `next()` (three
        // chunks wait when it pulled the first before the writer asked, else four).
        let filled = try await eventually { iterator.queuedBytes >= (bound - 1) * size }
        XCTAssertTrue(filled, "read ahead to the bound: \(iterator.queuedBytes) bytes")
        iterator.cancel()
        let sequenceEnded = try await eventually { ended.load(ordering: .relaxed) }
        XCTAssertTrue(sequenceEnded, "the stream saw the cancellation")
        withExtendedLifetime((chunks, continuation, iterator)) {}
    }

    /// A writer asking before any chunk is read is handed the chunk by the read-ahead task as
    /// it comes (no task of its own waits); one waiting when the iterator is cancelled gets
    /// `CancellationError`, and so does one asking after.
    func testAWaitingWriterIsHandedTheChunkAsItComesOrTheCancellation() async throws {
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let iterator = try XCTUnwrap(HTTPClientRequest.AsyncChunks(chunks).takeIterator())
        let handed = Recorder<Result<[UInt8]?, any Error>>()
        iterator.whenReady { handed.append($0) }
        let early = try await staysEmpty(handed)
        XCTAssertTrue(early, "handed something before the sequence made a chunk")
        continuation.yield([4, 5, 6])
        let came = try await eventually { handed.count == 1 }
        XCTAssertTrue(came, "the chunk was not handed over")
        XCTAssertEqual(try handed.values.first?.get(), [4, 5, 6])
        iterator.whenReady { handed.append($0) }
        iterator.cancel()
        let cancelled = try await eventually { handed.count == 2 }
        XCTAssertTrue(cancelled, "the waiting writer heard nothing of the cancellation")
        iterator.whenReady { handed.append($0) }
        XCTAssertEqual(handed.count, 3, "a writer asking after the cancellation is answered at once")
        for result in handed.values.dropFirst() {
            XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        }
        withExtendedLifetime(continuation) {}
    }

    /// Whether `recorder` stays empty for a tenth of a second.
    private func staysEmpty<Value>(_ recorder: Recorder<Value>) async throws -> Bool {
        for _ in 0..<5 {
            try await Task.sleep(for: .milliseconds(20))
            if recorder.count != 0 { return false }
        }
        return true
    }
}
