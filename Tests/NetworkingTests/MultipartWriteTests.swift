import Foundation
import Networking
import TestSupport
import XCTest

/// `MultipartFormData.writeEncodedData(to:)`: the body on disk, byte for byte, and each failure.
final class MultipartWriteTests: LeakCheckingTestCase {
    private func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    /// Alamofire's `testThatContentLengthMatchesTotalBodyPartSize`, its expected value as written.
    func testThatContentLengthMatchesTotalBodyPartSize() {
        let multipartFormData = MultipartFormData()
        let data1 = Data("Lorem ipsum dolor sit amet.".utf8)
        let data2 = Data("Vim at integre alterum.".utf8)
        multipartFormData.append(data1, withName: "data1")
        multipartFormData.append(data2, withName: "data2")
        XCTAssertEqual(multipartFormData.contentLength, UInt64(data1.count + data2.count))
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
        XCTAssertEqual(form.contentLength, 3 + 200_000, "Alamofire's count: the parts' data, no boundaries")
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

    /// A stream part writes its declared length, as Alamofire's `writeEncodedData` reads no more
    /// than `bodyContentLength`: the bytes after it stay in the stream.
    func testAStreamLongerThanItsDeclaredLengthWritesTheDeclaredBytes() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(InputStream(data: Data("0123456789".utf8)), withLength: 4, name: "s", fileName: "s.txt", mimeType: "text/plain")
        let output = scratch("body")
        defer { try? FileManager.default.removeItem(at: output) }
        try form.writeEncodedData(to: output)
        XCTAssertEqual(try Data(contentsOf: output).utf8Text,
                       "--b\r\nContent-Disposition: form-data; name=\"s\"; filename=\"s.txt\"\r\nContent-Type: text/plain\r\n\r\n0123\r\n--b--\r\n")
        XCTAssertEqual(form.contentLength, 4)
    }

    /// A stream that ends before its declared length would make a body shorter than the length
    /// sent with it: the body fails instead, and no file is left.
    func testAStreamShorterThanItsDeclaredLengthFails() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(InputStream(data: Data("01".utf8)), withLength: 4, name: "s", fileName: "s.txt", mimeType: "text/plain")
        let output = scratch("body")
        XCTAssertThrowsError(try form.writeEncodedData(to: output)) {
            XCTAssertEqual($0 as? MultipartEncodingFailure, .inputStreamReadFailed)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }
}
