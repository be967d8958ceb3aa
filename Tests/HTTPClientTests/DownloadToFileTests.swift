import Foundation
@testable import HTTPClient
import Locking
import XCTest

/// `DownloadToFile`, a response body going to its file, driven event by event as
/// `SocketExchange` drives it: no socket, no loop.
final class DownloadToFileTests: XCTestCase {
    func testTheFirstBytesMakeTheFileAndTheNextAreAppended() {
        var download = DownloadToFile()
        XCTAssertEqual(download.state, .notStarted)
        XCTAssertEqual(download.bodyArrived(fileFailed: false), .createAndWrite, "the head alone makes an empty file")
        XCTAssertEqual(download.bodyArrived(fileFailed: false), .write)
        XCTAssertEqual(download.bodyArrived(fileFailed: false), .write)
        XCTAssertEqual(download.finished(succeeded: true, fileFailed: false), .report)
        XCTAssertEqual(download.state, .closed)
        XCTAssertEqual(download.bodyArrived(fileFailed: false), nil, "nothing is written after the report")
    }

    func testAFileThatFailedStopsTheExchange() {
        var download = DownloadToFile()
        _ = download.bodyArrived(fileFailed: false)
        XCTAssertEqual(download.bodyArrived(fileFailed: true), .failDownload)
        XCTAssertEqual(download.state, .failed)
        XCTAssertEqual(download.bodyArrived(fileFailed: true), nil, "reported once")
        XCTAssertEqual(download.finished(succeeded: false, fileFailed: true), .report, "the failure reported stays as it is")
    }

    func testAFailureOfTheLastWritesTurnsOnlyASuccessIntoDownloadFailed() {
        var whole = DownloadToFile()
        _ = whole.bodyArrived(fileFailed: false)
        XCTAssertEqual(whole.finished(succeeded: true, fileFailed: true), .failDownload)

        var failed = DownloadToFile()
        _ = failed.bodyArrived(fileFailed: false)
        XCTAssertEqual(failed.finished(succeeded: false, fileFailed: true), .report, "the exchange's own failure comes first")
    }

    /// A real file that cannot be made (its folder is missing), as `SocketExchange` meets it: the
    /// error shows on the writer, and the machine turns it into `downloadFailed`.
    func testADownloadFileThatCannotBeMadeFailsTheDownload() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("DownloadToFileTests-\(UUID().uuidString)")
        let writer = DownloadFileWriter(file: folder.appendingPathComponent("file"), queue: DispatchQueue(label: "DownloadToFileTests"))
        var download = DownloadToFile()
        XCTAssertEqual(download.bodyArrived(fileFailed: writer.failure != nil), .createAndWrite)
        writer.write([1, 2, 3])
        let finished = expectation(description: "the file is closed")
        let error = Lock<(any Error)?>(nil)
        writer.finish { failure in
            error.withLock { $0 = failure }
            finished.fulfill()
        }
        wait(for: [finished], timeout: 20)
        let failure = error.withLock { $0 }
        XCTAssertNotNil(failure, "the folder is missing")
        XCTAssertNotNil(writer.failure)
        XCTAssertEqual(download.bodyArrived(fileFailed: writer.failure != nil), .failDownload, "more bytes find the file failed")
        var atTheEnd = DownloadToFile()
        _ = atTheEnd.bodyArrived(fileFailed: false)
        XCTAssertEqual(atTheEnd.finished(succeeded: true, fileFailed: failure != nil), .failDownload)
    }
}
