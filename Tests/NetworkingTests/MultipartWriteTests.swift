import Foundation
import Networking
import TestSupport
import XCTest

/// `MultipartFormData.writeEncodedData(to:)`: the body on disk, byte for byte, and each failure.
final class MultipartWriteTests: LeakCheckingTestCase {
    private func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    func testWritesTheBodyThatEncodeBuilds() throws {
        let source = scratch("part")
        try Data(repeating: 9, count: 200_000).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let form = MultipartFormData(boundary: "b")
        form.append(Data("Ann".utf8), name: "name")
        form.append(source, withName: "file")
        let output = scratch("body")
        defer { try? FileManager.default.removeItem(at: output) }
        try form.writeEncodedData(to: output)
        let written = try Data(contentsOf: output)
        XCTAssertEqual(written, try form.encode())
        XCTAssertEqual(UInt64(written.count), form.contentLength)
        XCTAssertTrue(written.utf8Text.hasPrefix("--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn\r\n--b\r\n"))
    }

    func testFailures() throws {
        let form = MultipartFormData()
        form.append(Data("x".utf8), name: "x")
        let web = URL(string: "https://example.com/body")!
        XCTAssertThrowsError(try form.writeEncodedData(to: web)) {
            XCTAssertEqual($0 as? MultipartEncodingFailure, .outputStreamURLInvalid(web))
        }
        let existing = scratch("existing")
        try Data("keep".utf8).write(to: existing)
        defer { try? FileManager.default.removeItem(at: existing) }
        XCTAssertThrowsError(try form.writeEncodedData(to: existing)) {
            XCTAssertEqual($0 as? MultipartEncodingFailure, .outputStreamFileAlreadyExists(existing))
        }
        XCTAssertEqual(try Data(contentsOf: existing).utf8Text, "keep", "an existing file is left alone")
        let nowhere = scratch("missing-folder").appendingPathComponent("body")
        XCTAssertThrowsError(try form.writeEncodedData(to: nowhere)) {
            XCTAssertEqual($0 as? MultipartEncodingFailure, .outputStreamCreationFailed(nowhere))
        }
        let broken = MultipartFormData()
        let gone = scratch("gone")
        broken.append(gone, withName: "f")
        let output = scratch("body")
        XCTAssertThrowsError(try broken.writeEncodedData(to: output)) {
            XCTAssertEqual($0 as? MultipartEncodingFailure, .fileNotReachable(gone))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "nothing written for a form that cannot be built")
    }

    func testAStreamThatFailsToReadFailsAndLeavesNoFile() throws {
        let folder = scratch("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let unreadable = try XCTUnwrap(InputStream(fileAtPath: folder.path), "a stream over a folder, whose reads fail")
        let form = MultipartFormData()
        form.append(Data("first".utf8), name: "first")
        form.append(unreadable, withLength: 100, name: "s", fileName: "s", mimeType: "text/plain")
        let output = scratch("body")
        XCTAssertThrowsError(try form.writeEncodedData(to: output)) { error in
            XCTAssertEqual(error as? MultipartEncodingFailure, .inputStreamReadFailed, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "the partial file is removed")
    }
}
