import Foundation
@testable import HTTPClient
import XCTest

/// `RequestBodyUpload`, the request body going out, driven event by event as `SocketExchange`
/// drives it: no socket, no loop, no I/O queue.
final class RequestBodyUploadTests: XCTestCase {
    private typealias Upload = RequestBodyUpload

    /// An upload of a file or stream, opened, its head framed for `length`, asking for its first piece.
    private func readingOffLoop(length: Int64?) -> Upload {
        var upload = Upload()
        XCTAssertEqual(upload.attemptStarted(.offLoop), .open(generation: upload.generation))
        XCTAssertEqual(upload.state, .opening)
        XCTAssertEqual(upload.opened(generation: upload.generation, succeeded: true), .sendHead)
        _ = upload.headPrepared(hasBody: true, length: length)
        XCTAssertEqual(upload.outputWritten(), [.readOffLoop(generation: upload.generation)])
        return upload
    }

    // MARK: Sources and framing

    func testNoBodyIsTheHeadAlone() {
        var upload = Upload()
        XCTAssertEqual(upload.attemptStarted(.none), .sendHead)
        XCTAssertEqual(upload.headPrepared(hasBody: false, length: nil), .length(0))
        XCTAssertEqual(upload.state, .lastPiece)
        XCTAssertEqual(upload.outputWritten(), [.requestWritten], "the head out is the request out")
        XCTAssertEqual(upload.state, .written)
        XCTAssertEqual(upload.outputWritten(), [], "once")
    }

    func testBytesInMemoryAreReadOnTheLoopUnderContentLength() {
        var upload = Upload()
        XCTAssertEqual(upload.attemptStarted(.inMemory), .sendHead)
        XCTAssertEqual(upload.headPrepared(hasBody: true, length: 5), .length(5))
        XCTAssertEqual(upload.outputWritten(), [.readNow], "the head is out, no body byte yet")
        let generation = upload.generation
        XCTAssertEqual(upload.pieceRead([1, 2, 3], generation: generation), .write([1, 2, 3]))
        XCTAssertEqual(upload.outputWritten(), [.reportProgress(sent: 3), .readNow])
        XCTAssertEqual(upload.pieceRead([4, 5], generation: generation), .write([4, 5]))
        XCTAssertEqual(upload.outputWritten(), [.reportProgress(sent: 5), .readNow])
        XCTAssertEqual(upload.pieceRead([], generation: generation), .write([]), "no terminator under Content-Length")
        XCTAssertEqual(upload.outputWritten(), [.requestWritten])
        XCTAssertTrue(upload.writable, "nothing is read off the loop")
    }

    func testAFileIsOpenedThenReadOffTheLoopOnePieceAtATime() {
        var upload = readingOffLoop(length: 4)
        let generation = upload.generation
        XCTAssertFalse(upload.writable, "the socket is not written while a piece is read")
        XCTAssertEqual(upload.pieceRead([1, 2, 3, 4], generation: generation), .write([1, 2, 3, 4]))
        XCTAssertTrue(upload.writable)
        XCTAssertEqual(upload.outputWritten(), [.reportProgress(sent: 4), .readOffLoop(generation: generation)])
        XCTAssertEqual(upload.pieceRead([], generation: generation), .write([]))
        XCTAssertEqual(upload.outputWritten(), [.requestWritten])
        XCTAssertEqual(upload.sent, 4)
    }

    func testAStreamOfUnknownLengthIsChunkedWithATerminator() {
        var upload = Upload()
        _ = upload.attemptStarted(.offLoop)
        _ = upload.opened(generation: upload.generation, succeeded: true)
        XCTAssertEqual(upload.headPrepared(hasBody: true, length: nil), .chunked)
        _ = upload.outputWritten()
        let generation = upload.generation
        XCTAssertEqual(upload.pieceRead(Array("ab".utf8), generation: generation), .write(Array("2\r\nab\r\n".utf8)))
        XCTAssertEqual(upload.outputWritten(), [.reportProgress(sent: 2), .readOffLoop(generation: generation)],
                       "progress counts the body's bytes, not the framing's")
        XCTAssertEqual(upload.pieceRead([], generation: generation), .write(Array("0\r\n\r\n".utf8)))
        XCTAssertEqual(upload.state, .lastPiece)
        XCTAssertEqual(upload.outputWritten(), [.requestWritten], "the terminator out is the request out")
    }

    // MARK: Failures

    func testAnUploadFileThatCannotBeOpenedFailsTheUpload() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("RequestBodyUploadTests-\(UUID().uuidString)")
        let opened = Result { try UploadBodyReader(.file(missing)) }
        XCTAssertThrowsError(try opened.get(), "the file is not there")
        var upload = Upload()
        _ = upload.attemptStarted(.offLoop)
        let succeeded = (try? opened.get()) != nil
        XCTAssertEqual(upload.opened(generation: upload.generation, succeeded: succeeded), .failUpload)
        XCTAssertEqual(upload.state, .failed)
        XCTAssertEqual(upload.outputWritten(), [], "nothing is sent after the failure")

        XCTAssertThrowsError(try UploadBodyReader(.stream({ nil }, length: nil)), "a factory that gives no stream fails the same way")
    }

    func testAPieceThatCannotBeReadFailsTheUpload() {
        var upload = readingOffLoop(length: nil)
        XCTAssertEqual(upload.pieceRead(nil, generation: upload.generation), .failUpload)
        XCTAssertEqual(upload.state, .failed)
        XCTAssertEqual(upload.pieceRead([1], generation: upload.generation), nil, "a failed upload takes no more pieces")

        var inMemory = Upload()
        _ = inMemory.attemptStarted(.inMemory)
        _ = inMemory.headPrepared(hasBody: true, length: 1)
        _ = inMemory.outputWritten()
        XCTAssertEqual(inMemory.pieceRead(nil, generation: inMemory.generation), .failUpload)
    }

    // MARK: Attempts given up

    func testLateOutcomesOfAnAttemptGivenUpAreIgnored() {
        var opening = Upload()
        _ = opening.attemptStarted(.offLoop)
        let first = opening.generation
        opening.abandon()
        XCTAssertEqual(opening.opened(generation: first, succeeded: true), .discard, "the reader opened too late is closed")
        XCTAssertEqual(opening.opened(generation: first, succeeded: false), nil, "a failure too late is no failure")
        XCTAssertEqual(opening.attemptStarted(.offLoop), .open(generation: opening.generation))
        XCTAssertNotEqual(opening.generation, first)
        XCTAssertEqual(opening.opened(generation: first, succeeded: true), .discard, "the retry's reader is another one")
        XCTAssertEqual(opening.opened(generation: opening.generation, succeeded: true, cancelled: true), .discard,
                       "the exchange ended meanwhile")

        var reading = readingOffLoop(length: 10)
        let generation = reading.generation
        XCTAssertEqual(reading.pieceRead([1], generation: generation, cancelled: true), nil, "the exchange ended meanwhile")
        reading.abandon()
        XCTAssertEqual(reading.pieceRead([1], generation: generation), nil)
        XCTAssertEqual(reading.pieceRead(nil, generation: generation), nil)
        XCTAssertTrue(reading.writable)
    }

    func testARetryCountsItsBodyFromTheStart() {
        var upload = Upload()
        _ = upload.attemptStarted(.inMemory)
        _ = upload.headPrepared(hasBody: true, length: 3)
        _ = upload.outputWritten()
        _ = upload.pieceRead([1, 2, 3], generation: upload.generation)
        XCTAssertEqual(upload.outputWritten(), [.reportProgress(sent: 3), .readNow])
        upload.abandon()
        XCTAssertEqual(upload.attemptStarted(.inMemory), .sendHead)
        _ = upload.headPrepared(hasBody: true, length: 3)
        XCTAssertEqual(upload.sent, 0)
        _ = upload.outputWritten()
        _ = upload.pieceRead([1, 2], generation: upload.generation)
        XCTAssertEqual(upload.outputWritten(), [.reportProgress(sent: 2), .readNow])
    }
}
