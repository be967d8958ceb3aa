import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// The download file's backlog: past `backlogLimit` bytes waiting for the disk the writer says
/// so, and it calls back once half is written, with every byte in the file in order.
final class DownloadFileWriterTests: XCTestCase {
    func testABacklogPastTheLimitIsReportedAndTheResumeComesOnceHalfIsWritten() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("DownloadFileWriterTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        // A disk that does not keep up: the I/O queue is held until the test lets it go.
        let io = DispatchQueue(label: "DownloadFileWriterTests.io")
        io.suspend()
        let writer = DownloadFileWriter(file: file, queue: io)
        let chunk = 256 << 10
        var backlogged: [Bool] = []
        for index in 0..<20 {
            backlogged.append(writer.write([UInt8](repeating: UInt8(index), count: chunk)))
        }
        // 16 chunks make exactly the limit; the 17th goes past it.
        XCTAssertEqual(backlogged, Array(repeating: false, count: 16) + Array(repeating: true, count: 4))
        XCTAssertEqual(writer.backlogBytes, 20 * chunk)
        let resumed = expectation(description: "resumed")
        let backlogAtResume = Recorder<Int>()
        writer.resumeWhenDrained {
            backlogAtResume.append(writer.backlogBytes)
            resumed.fulfill()
        }
        io.resume()
        wait(for: [resumed], timeout: 10)
        XCTAssertEqual(backlogAtResume.count, 1)
        let atResume = backlogAtResume.values.first ?? -1
        XCTAssertLessThanOrEqual(atResume, DownloadFileWriter.backlogLimit / 2)
        XCTAssertGreaterThan(atResume, 0, "it resumed once half was written, before the end")
        let finished = expectation(description: "finished")
        writer.finish { error in
            XCTAssertNil(error)
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        let data = try Data(contentsOf: file)
        XCTAssertEqual(data.count, 20 * chunk)
        XCTAssertEqual((0..<20).map { data[$0 * chunk] }, (0..<20).map(UInt8.init))
        XCTAssertEqual(writer.backlogBytes, 0)
    }

    func testAResumeAskedForWithLittleWaitingComesAtOnce() {
        let io = DispatchQueue(label: "DownloadFileWriterTests.io2")
        io.suspend()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("DownloadFileWriterTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = DownloadFileWriter(file: file, queue: io)
        XCTAssertFalse(writer.write([1, 2, 3]))
        let calls = Recorder<Int>()
        writer.resumeWhenDrained { calls.append(1) }
        XCTAssertEqual(calls.count, 1, "3 bytes waiting is under half the limit")
        io.resume()
        let finished = expectation(description: "finished")
        writer.finish { _ in finished.fulfill() }
        wait(for: [finished], timeout: 10)
    }
}
