import FeedServer
import Foundation
import TestSupport
import XCTest

/// The full-screen viewer in a pseudo-terminal.
final class InteractiveTests: LeakCheckingTestCase {
    private func assertRestored(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(text.contains("\u{1B}[?1049h"), "entered the alternate screen", file: file, line: line)
        guard let modes = PTYSession.modesAfterRestore(text) else {
            return XCTFail("cursor never shown again / alternate screen never left: \(text.suffix(300))", file: file, line: line)
        }
        XCTAssertTrue(modes.isSuperset(of: ["icanon", "echo", "isig", "icrnl", "opost"]), "\(modes)", file: file, line: line)
        XCTAssertTrue(modes.isDisjoint(with: ["-icanon", "-echo", "-isig", "-icrnl", "-opost"]), "\(modes)", file: file, line: line)
    }

    func testLoadsPagesWithNQuitsWithQAndRestoresTheTerminal() throws {
        let session = try PTYSession(arguments: ["--demo", "--no-color"])

        XCTAssertTrue(session.waitFor("1 section, 20 photos"), "first page: \(session.text.suffix(400))")
        session.type("n")
        XCTAssertTrue(session.waitFor("2 sections, 40 photos"), "second page: \(session.text.suffix(400))")
        XCTAssertTrue(session.text.contains("── Section 1 · 20 photos"))
        session.type("jjq")
        let (ended, text) = session.finish()

        XCTAssertTrue(ended, "the viewer quits on q")
        XCTAssertTrue(text.contains("EXIT=0"), String(text.suffix(600)))
        XCTAssertFalse(text.contains("\u{1B}[36m"), "--no-color writes no colours")
        assertRestored(text)
    }

    func testCtrlCQuitsAndRestoresTheTerminal() throws {
        let session = try PTYSession(arguments: ["--offline"])

        XCTAssertTrue(session.waitFor("1 section, 5 photos"), session.text)
        session.type("\u{3}")
        let (ended, text) = session.finish()

        XCTAssertTrue(ended)
        XCTAssertTrue(text.contains("EXIT=0"), String(text.suffix(600)))
        assertRestored(text)
    }

    func testAFailureShowsABannerAndTheViewerStaysUp() throws {
        let server = try FeedServer(configuration: .init(feedFaultRate: 1))
        defer { server.stop() }
        let session = try PTYSession(arguments: ["--base-url", server.baseURL.absoluteString])

        XCTAssertTrue(session.waitFor("! Server error (503 Service Unavailable) from http://127.0.0.1:\(server.port)/services/feeds/"), session.text)
        session.type("q")
        let (ended, text) = session.finish()

        XCTAssertTrue(ended)
        XCTAssertTrue(text.contains("EXIT=0"), String(text.suffix(600)))
        assertRestored(text)
    }

    func testNewTagsFromThePromptReachTheServer() throws {
        let server = try FeedServer(configuration: .init(itemsPerPage: 2))
        defer { server.stop() }
        let session = try PTYSession(arguments: ["--base-url", server.baseURL.absoluteString, "--tags", "sea"])

        XCTAssertTrue(session.waitFor("tags: sea (any)"), session.text)
        XCTAssertTrue(session.waitFor("1 section, 2 photos"), session.text)
        session.type("t")
        XCTAssertTrue(session.waitFor("New tags: sea_"), session.text)
        session.type("\u{7F}\u{7F}\u{7F}cats\r")
        XCTAssertTrue(session.waitFor("tags: cats (any)"), session.text)
        XCTAssertTrue(waitUntil { server.requestCount == 2 })
        session.type("q")
        XCTAssertTrue(session.finish().ended)
    }

    func testPShowsThePhotoLargeAndAnyKeyReturns() throws {
        let session = try PTYSession(arguments: ["--demo", "--images", "truecolor"], environment: ["TERM": "xterm-256color"])
        XCTAssertTrue(session.waitFor("1 section, 20 photos"), session.text.suffix(400).description)
        let before = session.byteCount
        session.type("p")
        XCTAssertTrue(session.waitFor("any key returns to the list", after: before), session.text.suffix(400).description)
        // the 240-pixel-wide demo picture drawn over most of the 100 x 30 screen: a line of 40 cells or more
        XCTAssertTrue(session.waitFor(String(repeating: "▀", count: 40), after: before), "a large picture")
        let back = session.byteCount
        session.type("x")
        XCTAssertTrue(session.waitFor("? keys", after: back), session.text.suffix(400).description)
        assertQuitsCleanly(session)
    }

    /// Types `q`, then checks the viewer ended with status 0 and restored the terminal.
    @discardableResult
    private func assertQuitsCleanly(_ session: PTYSession, file: StaticString = #filePath, line: UInt = #line) -> String {
        session.type("q")
        let (ended, text) = session.finish()
        XCTAssertTrue(ended, "the viewer quits on q", file: file, line: line)
        XCTAssertTrue(text.contains("EXIT=0"), String(text.suffix(600)), file: file, line: line)
        assertRestored(text, file: file, line: line)
        return text
    }

    func testVerboseInFullScreenWritesALogFileNamedOnExit() throws {
        let session = try PTYSession(arguments: ["--offline", "--verbose"], environment: ["TERM": "xterm-256color"])
        XCTAssertTrue(session.waitFor("1 section, 5 photos"), session.text)
        XCTAssertFalse(session.text.contains("Networking:"), "no log line over the full screen")
        let text = assertQuitsCleanly(session)
        let marker = "photo-feed: the --verbose log is in "
        let path = try XCTUnwrap(text.components(separatedBy: marker).last?.split(whereSeparator: \.isNewline).first.map(String.init),
                                 String(text.suffix(600)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(log.contains("Request: https://api.flickr.com/services/feeds/photos_public.gne"), log)
    }
}
