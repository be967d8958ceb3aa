import Foundation
import PhotoFeedViewerCore
import TestSupport
import XCTest

/// Which display `photo-feed` picks: `--no-color` as `NO_COLOR`, colour depths, `TERM=dumb`,
/// `--verbose` in full screen, `--images` for printed output.
final class DisplayPlanTests: LeakCheckingTestCase {
    private func plan(_ arguments: [String], _ environment: [String: String] = ["TERM": "xterm-256color"],
                      terminal: Bool = true, stderrIsTerminal: Bool = true) throws -> DisplayPlan {
        guard case .run(let options) = try ArgumentParser.parse(arguments) else {
            XCTFail("not options: \(arguments)")
            return DisplayPlan(options: ViewerOptions(), environment: [:], stdinIsTerminal: false, stdoutIsTerminal: false,
                               stderrIsTerminal: false)
        }
        return DisplayPlan(options: options, environment: environment, stdinIsTerminal: terminal, stdoutIsTerminal: terminal,
                           stderrIsTerminal: stderrIsTerminal)
    }

    func testNoColorFlagAndNOCOLORBehaveTheSame() throws {
        let flag = try plan(["--no-color"], ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        let variable = try plan([], ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"])
        XCTAssertEqual(flag, variable)
        XCTAssertEqual(flag.graphics, .none, "no colour codes in pictures either")
        XCTAssertFalse(flag.colors)
        XCTAssertEqual(try plan(["--no-color", "--images", "256"]).graphics, .halfBlocks(.palette256), "asked for explicitly")
        XCTAssertEqual(try plan([], ["TERM": "xterm-256color", "COLORTERM": "truecolor"]).graphics, .halfBlocks(.truecolor))
    }

    func testThePlanSaysWhyThereAreNoPictures() throws {
        XCTAssertEqual(try plan([], ["TERM": "xterm-256color", "NO_COLOR": "1"]).picturesOff, .colorsOff)
        XCTAssertEqual(try plan(["--no-color"]).picturesOff, .colorsOff)
        XCTAssertEqual(try plan(["--images", "none"], ["TERM": "xterm-256color", "NO_COLOR": "1"]).picturesOff, .asked)
        XCTAssertEqual(try plan([], [:]).picturesOff, .terminal, "no TERM to go by")
        XCTAssertNil(try plan([]).picturesOff)
        XCTAssertNil(try plan(["--no-color", "--images", "blocks"]).picturesOff, "asked for all the same")
    }

    func testTruecolorAnd256ChooseTheHalfBlockDepth() throws {
        XCTAssertEqual(try plan(["--images", "truecolor"], ["TERM": "screen-256color"]).graphics, .halfBlocks(.truecolor),
                       "inside tmux COLORTERM is often missing")
        XCTAssertEqual(try plan(["--images=256"], ["TERM": "xterm", "COLORTERM": "truecolor"]).graphics, .halfBlocks(.palette256))
        XCTAssertEqual(try plan([], ["TERM": "screen-256color"]).graphics, .halfBlocks(.palette256), "auto stays the default")
    }

    func testADumbTerminalGetsThePrintedOutput() throws {
        let dumb = try plan([], ["TERM": "dumb"])
        XCTAssertFalse(dumb.interactive)
        XCTAssertFalse(dumb.colors)
        XCTAssertEqual(dumb.graphics, .none)
        XCTAssertTrue(try plan([]).interactive)
    }

    func testVerboseInFullScreenGoesToALogFile() throws {
        XCTAssertTrue(try plan(["--verbose"]).logsToFile)
        XCTAssertFalse(try plan(["--verbose"], stderrIsTerminal: false).logsToFile, "stderr redirected: the lines go there")
        XCTAssertFalse(try plan(["--verbose"], terminal: false).logsToFile, "printed output: stderr shows them")
        XCTAssertFalse(try plan([]).logsToFile)
    }

    func testImagesForPrintedOutputIsNoted() throws {
        let piped = try plan(["--images", "blocks"], terminal: false)
        XCTAssertFalse(piped.interactive)
        XCTAssertEqual(piped.notes.count, 1)
        XCTAssertTrue(piped.notes[0].contains("--images applies to the full screen only"), piped.notes[0])
        XCTAssertEqual(try plan(["--images", "blocks", "--plain"]).notes.count, 1)
        XCTAssertEqual(try plan(["--images", "blocks"]).notes, [])
        XCTAssertEqual(try plan([], terminal: false).notes, [])
    }

    func testTheLogFileKeepsEveryLineAndIsPrivate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try VerboseLogFile.create(in: folder)
        file.write("Networking: one")
        file.write("Networking: two")
        file.close()
        file.write("after close")
        XCTAssertEqual(try String(contentsOf: file.url, encoding: .utf8), "Networking: one\nNetworking: two\n")
        let permissions = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o600)
        XCTAssertThrowsError(try VerboseLogFile.create(in: folder.appendingPathComponent("missing")))
    }
}
