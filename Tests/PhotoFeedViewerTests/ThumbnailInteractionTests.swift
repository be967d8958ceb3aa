import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PhotoFeed
import Locking
import TestSupport
import XCTest

/// The viewer with thumbnails, in a pseudo-terminal against real servers on 127.0.0.1.
final class ThumbnailInteractionTests: LeakCheckingTestCase {
    private var directory: URL?

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    /// A directory holding an `xdg-open` that appends its argument to `opened.txt`.
    private func stubOpener() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        let script = directory.appendingPathComponent("xdg-open")
        try "#!/bin/sh\necho \"$1\" >> '\(directory.path)/opened.txt'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return directory
    }

    func testThumbnailsShowTheSelectionMovesOpensCopiesFiltersAndImagesToggle() throws {
        let opener = try stubOpener()
        let path = opener.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let session = try PTYSession(arguments: ["--demo", "--images", "blocks"],
                                     environment: ["COLORTERM": "truecolor", "PATH": path])

        XCTAssertTrue(session.waitFor("1 section, 20 photos"), session.text.suffix(400).description)
        XCTAssertTrue(session.waitFor("photo 1 of 20"))
        XCTAssertTrue(session.waitFor("\u{1B}[38;2;"), "24-bit half blocks drawn")
        XCTAssertTrue(session.text.contains("▀"))

        var mark = session.byteCount
        session.type("jj")
        XCTAssertTrue(session.waitFor("photo 3 of 20", after: mark), session.text(from: mark).suffix(300).description)

        mark = session.byteCount
        session.type("o")
        XCTAssertTrue(session.waitFor("Opened http://127.0.0.1:", after: mark), session.text(from: mark).suffix(300).description)
        let openedFile = opener.appendingPathComponent("opened.txt")
        XCTAssertTrue(waitUntil { FileManager.default.fileExists(atPath: openedFile.path) })
        let opened = try String(contentsOf: openedFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(opened.wholeMatch(of: /http:\/\/127\.0\.0\.1:\d+\/photos\/[^\/]+\/\d+\//), opened)
        // The demo server's own page of the photo, while the viewer runs.
        let page = try fetch(XCTUnwrap(URL(string: opened)))
        XCTAssertEqual(page.status, 200, opened)
        XCTAssertTrue(page.body.contains("<h1>") && page.body.contains("<img src=\"/images/65535/"), page.body)

        mark = session.byteCount
        session.type("y")
        XCTAssertTrue(session.waitFor("\u{1B}]52;c;\(Data(opened.utf8).base64EncodedString())\u{7}", after: mark),
                      "OSC 52 carries the link of the photo that was opened")

        mark = session.byteCount
        session.type("/zzzq")
        XCTAssertTrue(session.waitFor("No loaded photo matches \"zzzq\"", after: mark), session.text(from: mark).suffix(300).description)
        mark = session.byteCount
        session.type("\u{1B}")
        XCTAssertTrue(session.waitFor("photo 1 of 20", after: mark), session.text(from: mark).suffix(300).description)

        mark = session.byteCount
        session.type("i")
        let textOnlyFrame = waitUntil {
            session.text(from: mark).components(separatedBy: "\u{1B}[H").contains { frame in
                frame.contains("── Section 1") && frame.contains("│ ↑/↓ select") && !frame.contains("▀")
            }
        }
        XCTAssertTrue(textOnlyFrame, "a whole frame without thumbnails once toggled off")
        mark = session.byteCount
        session.type("i")
        XCTAssertTrue(session.waitFor("▀", after: mark), "back on")

        mark = session.byteCount
        session.type("?")
        XCTAssertTrue(session.waitFor("open the photo's page in the browser", after: mark))
        session.type("xq")
        let (ended, text) = session.finish()
        XCTAssertTrue(ended)
        XCTAssertTrue(text.contains("EXIT=0"), String(text.suffix(400)))
    }

    func testEachProtocolDrawsAtTheThumbnailBoxAndNoColorTurnsAutoOff() throws {
        let expectations: [([String], [String: String], String)] = [
            (["--images", "kitty"], [:], "\u{1B}[3;3H\u{1B}_Ga=T,f=24,s=96,v=64,"),
            (["--images", "iterm"], [:], "\u{1B}[3;3H\u{1B}]1337;File=inline=1;size="),
            (["--images", "sixel"], [:], "\u{1B}[3;3H\u{1B}P0;1;0q\"1;1;96;64"),
            ([], ["TERM": "xterm-kitty", "NO_COLOR": ""], "\u{1B}[3;3H\u{1B}_Ga=T,f=24,"),
            (["--images", "blocks"], ["NO_COLOR": "1", "TERM": "xterm-256color"], "▀"),
        ]
        // Each protocol is one more run of the viewer for the same threads (three seconds a run
        // under the thread sanitizer): there one protocol watches them, the plain run checks all.
        for (arguments, environment, expected) in isThreadSanitizerBuild ? [expectations[0]] : expectations {
            let session = try PTYSession(arguments: ["--demo"] + arguments, environment: environment)
            XCTAssertTrue(session.waitFor("photo 1 of 20"), "\(arguments)")
            XCTAssertTrue(session.waitFor(expected), "\(arguments) \(environment): \(session.text.suffix(200).debugDescription)")
            session.type("q")
            XCTAssertTrue(session.finish().ended)
        }
        let quiet = try PTYSession(arguments: ["--demo"], environment: ["NO_COLOR": "1", "TERM": "xterm-kitty"])
        XCTAssertTrue(quiet.waitFor("photo 1 of 20"))
        XCTAssertTrue(quiet.waitFor("y copy"))
        XCTAssertFalse(quiet.text.contains("p preview") || quiet.text.contains("i images"), "the footer offers no picture keys under NO_COLOR")
        quiet.type("i")
        XCTAssertTrue(quiet.waitFor("No pictures: colours are off (NO_COLOR or --no-color)"), quiet.text.suffix(300).description)
        let mark = quiet.byteCount
        quiet.type("p")
        XCTAssertTrue(quiet.waitFor("No pictures: colours are off (NO_COLOR or --no-color)", after: mark), quiet.text(from: mark).suffix(300).description)
        let help = quiet.byteCount
        quiet.type("?")
        XCTAssertTrue(quiet.waitFor("i p          No pictures: colours are off", after: help), quiet.text(from: help).suffix(300).description)
        XCTAssertFalse(quiet.text(from: help).contains("thumbnails on or off"), "the keys offer no picture keys under NO_COLOR either")
        quiet.type("q")
        quiet.type("q")
        let (ended, text) = quiet.finish()
        XCTAssertTrue(ended)
        XCTAssertFalse(text.contains("\u{1B}_G") || text.contains("▀"), "NO_COLOR: no pictures unless asked")
    }

    /// The status and body of a GET of `url` on loopback, within 10 s.
    private func fetch(_ url: URL) throws -> (status: Int, body: String) {
        let result = Lock<(Int, String)?>(nil)
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        URLSession.shared.dataTask(with: request) { data, response, _ in
            result.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self)) }
            done.signal()
        }.resume()
        XCTAssertEqual(done.wait(timeout: .now() + 15), .success)
        return try XCTUnwrap(result.withLock { $0 })
    }

    func testWithoutAnOpenerTheURLIsShown() throws {
        let session = try PTYSession(arguments: ["--offline", "--images", "none"], environment: ["PATH": "/nonexistent"])
        XCTAssertTrue(session.waitFor("photo 1 of 5"), session.text.suffix(300).description)
        let mark = session.byteCount
        session.type("\r")
        XCTAssertTrue(session.waitFor("Open in a browser: https://", after: mark), session.text(from: mark).suffix(300).description)
        session.type("q")
        XCTAssertTrue(session.finish().ended)
    }

    func testScrollingAwayCancelsTheImageRequestsOfRowsThatLeft() throws {
        let images = try FeedServer()
        defer { images.stop() }
        let items = (1...20).map { number in
            Photo.Item(title: "Photo \(number)", link: "https://www.flickr.com/photos/x/\(number)/",
                       media: .init(m: images.imageURL(named: "slow/30000/65535/\(number)_m.jpg")),
                       author: "nobody@flickr.com (\"x\")", authorID: "1@N01", published: "2026-11-20T08:00:00Z",
                       tags: "t", description: "")
        }
        let feed = try JSONEncoder().encode(Photo(title: "slow pictures", link: "https://www.flickr.com/", items: items))
        let server = try FeedServer(configuration: .init(feedOverride: feed))
        defer { server.stop() }
        let session = try PTYSession(arguments: ["--base-url", server.baseURL.absoluteString, "--images", "blocks"])

        XCTAssertTrue(session.waitFor("photo 1 of 20"), session.text.suffix(300).description)
        // 27 body rows: a section line and six whole photos of four rows, and part of a seventh;
        // six requests run, the seventh waits for a slot
        XCTAssertTrue(waitUntil { images.imageRequestCount >= 6 }, "\(images.imageRequestCount)")
        XCTAssertEqual(images.abandonedImageCount, 0)

        session.type("G")
        XCTAssertTrue(session.waitFor("photo 20 of 20"))
        XCTAssertTrue(waitUntil { images.abandonedImageCount >= 6 }, "the six rows that left are cancelled: \(images.abandonedImageCount)")
        XCTAssertTrue(waitUntil { images.imageRequestCount >= 12 }, "the rows now visible load: \(images.imageRequestCount)")
        // No sleep needed to see what did not happen: photo 7, queued since the start, would have
        // taken the first slot the cancelled rows freed, before any row now visible.
        let requested = (1...20).filter { images.requestCount(path: "/images/slow/30000/65535/\($0)_m.jpg") > 0 }
        XCTAssertEqual(requested.filter { $0 <= 13 }, Array(1...6),
                       "at most six at once, and photos 7 to 13 (gone or never on screen) are never requested")
        XCTAssertEqual(requested.count, 12, "six slots for the rows now visible: \(requested)")
        XCTAssertEqual(images.abandonedImageCount, 6)
        session.type("q")
        XCTAssertTrue(session.finish().ended)
    }
}
