import Foundation
@testable import HTTPClient
import XCTest

/// `RequestBodyUpload`, the request body of one attempt going out, driven event by event as
/// `ExchangeMachine` drives it: no socket, no loop, no I/O queue.
final class RequestBodyUploadTests: XCTestCase {
    private typealias Upload = RequestBodyUpload

    /// What `outputWritten()` said: the progress to report (if any) and what comes next.
    private struct Written: Equatable {
        var progress: Int64?
        var next: Upload.Next
    }

    private func written(_ upload: inout Upload) -> Written {
        let (progress, next) = upload.outputWritten()
        return Written(progress: progress, next: next)
    }

    /// An upload of a file or stream, opened, its head framed for `length` and out, its first
    /// piece asked for off the loop.
    private func readingOffLoop(length: Int64?) -> Upload {
        var upload = Upload()
        XCTAssertEqual(upload.attemptStarted(.offLoop, generation: 1), .open(generation: 1))
        XCTAssertEqual(upload.opened(succeeded: true), .sendHead)
        _ = upload.headPrepared(hasBody: true, length: length)
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .readOffLoop))
        return upload
    }

    // MARK: Sources and framing

    /// No body: the head says `Content-Length: 0` (when the method wants one) and its going
    /// out is the request out, once; no piece is read.
    func testNoBodyIsTheHeadAlone() {
        var upload = Upload()
        XCTAssertEqual(upload.attemptStarted(.none, generation: 1), .sendHead)
        XCTAssertEqual(upload.headPrepared(hasBody: false, length: nil), .length(0))
        XCTAssertEqual(upload.state, .lastPiece)
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .requestWritten), "the head out is the request out")
        XCTAssertEqual(upload.state, .written)
    }

    /// Bytes in memory are read on the loop, piece after piece, sent as they are under
    /// `Content-Length` (no terminator), the progress counting the bytes out.
    func testBytesInMemoryAreReadOnTheLoopUnderContentLength() {
        var upload = Upload()
        XCTAssertEqual(upload.attemptStarted(.inMemory, generation: 1), .sendHead)
        XCTAssertEqual(upload.headPrepared(hasBody: true, length: 5), .length(5))
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .readNow), "the head is out, no body byte yet")
        XCTAssertEqual(upload.pieceRead([1, 2, 3]), .write([1, 2, 3]))
        XCTAssertEqual(written(&upload), Written(progress: 3, next: .readNow))
        XCTAssertEqual(upload.pieceRead([4, 5]), .write([4, 5]))
        XCTAssertEqual(written(&upload), Written(progress: 5, next: .readNow))
        XCTAssertEqual(upload.pieceRead([]), .write([]), "no terminator under Content-Length")
        XCTAssertEqual(upload.state, .lastPiece)
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .requestWritten), "no body byte in the last piece")
        XCTAssertEqual(upload.sent, 5)
        XCTAssertFalse(upload.writable, "the request is out")
    }

    /// A file is opened off the loop (the head waiting for its length), then read off the loop
    /// one piece at a time; the socket is written only between reads.
    func testAFileIsOpenedThenReadOffTheLoopOnePieceAtATime() {
        var upload = Upload()
        XCTAssertEqual(upload.attemptStarted(.offLoop, generation: 4), .open(generation: 4), "under the exchange's generation")
        XCTAssertEqual(upload.state, .opening)
        XCTAssertEqual(upload.opened(succeeded: true), .sendHead)
        XCTAssertEqual(upload.state, .headDue)
        XCTAssertEqual(upload.headPrepared(hasBody: true, length: 4), .length(4))
        XCTAssertEqual(upload.state, .sending)
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .readOffLoop))
        XCTAssertEqual(upload.state, .reading)
        XCTAssertEqual(upload.pieceRead([1, 2, 3, 4]), .write([1, 2, 3, 4]))
        XCTAssertEqual(written(&upload), Written(progress: 4, next: .readOffLoop))
        XCTAssertEqual(upload.pieceRead([]), .write([]))
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .requestWritten))
        XCTAssertEqual(upload.sent, 4)
    }

    /// A stream of unknown length goes chunked, each piece framed and a terminator last; the
    /// progress counts the body's bytes, not the framing's.
    func testAStreamOfUnknownLengthIsChunkedWithATerminator() {
        var upload = Upload()
        _ = upload.attemptStarted(.offLoop, generation: 1)
        _ = upload.opened(succeeded: true)
        XCTAssertEqual(upload.headPrepared(hasBody: true, length: nil), .chunked)
        XCTAssertTrue(upload.chunked)
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .readOffLoop))
        XCTAssertEqual(upload.pieceRead(Array("ab".utf8)), .write(Array("2\r\nab\r\n".utf8)))
        XCTAssertEqual(written(&upload), Written(progress: 2, next: .readOffLoop), "progress counts the body's bytes, not the framing's")
        XCTAssertEqual(upload.pieceRead(Array("0123456789abcdefg".utf8)), .write(Array("11\r\n0123456789abcdefg\r\n".utf8)),
                       "the chunk size in hex")
        XCTAssertEqual(written(&upload), Written(progress: 19, next: .readOffLoop))
        XCTAssertEqual(upload.pieceRead([]), .write(Array("0\r\n\r\n".utf8)))
        XCTAssertEqual(upload.state, .lastPiece)
        XCTAssertEqual(written(&upload), Written(progress: nil, next: .requestWritten), "the terminator out is the request out")
    }

    /// A known length is never chunked, whatever the source, and a length of zero is still a body.
    func testAKnownLengthIsSentAsIs() {
        var empty = Upload()
        _ = empty.attemptStarted(.offLoop, generation: 1)
        _ = empty.opened(succeeded: true)
        XCTAssertEqual(empty.headPrepared(hasBody: true, length: 0), .length(0))
        XCTAssertFalse(empty.chunked)
        XCTAssertEqual(written(&empty), Written(progress: nil, next: .readOffLoop), "the end of the body is read too")
        XCTAssertEqual(empty.pieceRead([]), .write([]))
        XCTAssertEqual(written(&empty), Written(progress: nil, next: .requestWritten))
    }

    // MARK: Writable

    /// The socket is written only while the head or a piece goes out: not while the file or
    /// stream is opening, the head is due or a piece is read (on the loop or off it).
    func testTheSocketIsWritableOnlyWhileTheHeadOrAPieceGoesOut() {
        var upload = Upload()
        XCTAssertFalse(upload.writable, "nothing started")
        _ = upload.attemptStarted(.offLoop, generation: 1)
        XCTAssertFalse(upload.writable, "opening: the head waits for the length")
        _ = upload.opened(succeeded: true)
        XCTAssertFalse(upload.writable, "opened: the head is not made yet")
        _ = upload.headPrepared(hasBody: true, length: 2)
        XCTAssertTrue(upload.writable, "the head goes out")
        _ = written(&upload)
        XCTAssertFalse(upload.writable, "a piece is read off the loop")
        _ = upload.pieceRead([1, 2])
        XCTAssertTrue(upload.writable, "the piece goes out")
        _ = written(&upload)
        XCTAssertFalse(upload.writable)
        _ = upload.pieceRead([])
        XCTAssertTrue(upload.writable)

        var inMemory = Upload()
        _ = inMemory.attemptStarted(.inMemory, generation: 1)
        XCTAssertFalse(inMemory.writable, "bytes in memory open nothing, but the head is not made yet")
        _ = inMemory.headPrepared(hasBody: true, length: 1)
        _ = written(&inMemory)
        XCTAssertFalse(inMemory.writable, "read on the loop, at once: nothing to write until it is in")
        _ = inMemory.pieceRead([1])
        XCTAssertTrue(inMemory.writable)
    }

    // MARK: Failures

    /// A file that cannot be opened (for real: it is not there) fails the upload, and nothing
    /// is sent after it.
    func testAnUploadFileThatCannotBeOpenedFailsTheUpload() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("RequestBodyUploadTests-\(UUID().uuidString)")
        let opened = Result { try UploadBodyReader(.file(missing)) }
        XCTAssertThrowsError(try opened.get(), "the file is not there")
        var upload = Upload()
        _ = upload.attemptStarted(.offLoop, generation: 1)
        let succeeded = (try? opened.get()) != nil
        XCTAssertEqual(upload.opened(succeeded: succeeded), .failUpload)
        XCTAssertEqual(upload.state, .failed, "the exchange ends: nothing is sent after the failure")

        XCTAssertThrowsError(try UploadBodyReader(.stream({ nil }, length: nil)), "a factory that gives no stream fails the same way")
    }

    /// A piece that cannot be read fails the upload, off the loop or on it (the exchange then
    /// ends: a failed upload takes no more events).
    func testAPieceThatCannotBeReadFailsTheUpload() {
        var upload = readingOffLoop(length: nil)
        XCTAssertEqual(upload.pieceRead(nil), .failUpload)
        XCTAssertEqual(upload.state, .failed)

        var inMemory = Upload()
        _ = inMemory.attemptStarted(.inMemory, generation: 1)
        _ = inMemory.headPrepared(hasBody: true, length: 1)
        _ = written(&inMemory)
        XCTAssertEqual(inMemory.pieceRead(nil), .failUpload)
    }
}
