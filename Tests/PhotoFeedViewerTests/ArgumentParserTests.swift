import Foundation
import PhotoFeedViewerCore
import TestSupport
import XCTest

final class ArgumentParserTests: LeakCheckingTestCase {
    private func options(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> ViewerOptions {
        let command = try ArgumentParser.parse(arguments)
        guard case .run(let options) = command else {
            XCTFail("expected options, got \(command)", file: file, line: line)
            return ViewerOptions()
        }
        return options
    }

    private func mistake(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let command = try ArgumentParser.parse(arguments)
            XCTFail("\(arguments) parsed as \(command)", file: file, line: line)
            return nil
        } catch {
            return error.message
        }
    }

    func testNoArgumentsViewLiveFlickrWithTheDocumentsQuery() throws {
        let parsed = try options([])
        XCTAssertEqual(parsed, ViewerOptions())
        XCTAssertEqual(parsed.source, .flickr)
        XCTAssertEqual(parsed.request.tags, "landscape, portrait")
        XCTAssertEqual(parsed.request.tagmode, "any")
        XCTAssertEqual(parsed.format, .automatic)
        XCTAssertNil(parsed.pages)
        XCTAssertNil(parsed.watch)
        XCTAssertEqual(parsed.timeout, .seconds(10))
        XCTAssertFalse(parsed.verbose)
        XCTAssertTrue(parsed.color)
    }

    func testEveryOptionWithASeparateValue() throws {
        let parsed = try options(["--base-url", "http://127.0.0.1:9/feeds", "--tags", "cats, dogs", "--tagmode", "ALL",
                                  "--pages", "3", "--watch", "2.5", "--timeout", "0.25", "--json", "--verbose", "--no-color"])
        XCTAssertEqual(parsed.source, .baseURL(URL(string: "http://127.0.0.1:9/feeds")!))
        XCTAssertEqual(parsed.tags, "cats, dogs")
        XCTAssertEqual(parsed.tagmode, "all")
        XCTAssertEqual(parsed.pages, 3)
        XCTAssertEqual(parsed.watch, .milliseconds(2500))
        XCTAssertEqual(parsed.timeout, .milliseconds(250))
        XCTAssertEqual(parsed.format, .json)
        XCTAssertTrue(parsed.verbose)
        XCTAssertFalse(parsed.color)
    }

    func testEveryOptionWithAnEqualsValue() throws {
        let parsed = try options(["--base-url=https://example.org", "--tags=a=b", "--tagmode=any", "--pages=1",
                                  "--watch=60", "--timeout=5", "--plain"])
        XCTAssertEqual(parsed.source, .baseURL(URL(string: "https://example.org")!))
        XCTAssertEqual(parsed.tags, "a=b", "only the first = splits")
        XCTAssertEqual(parsed.pages, 1)
        XCTAssertEqual(parsed.watch, .seconds(60))
        XCTAssertEqual(parsed.timeout, .seconds(5))
        XCTAssertEqual(parsed.format, .plain)
    }

    func testSourcesAndEmptyTags() throws {
        XCTAssertEqual(try options(["--demo"]).source, .demo)
        XCTAssertEqual(try options(["--offline"]).source, .offline)
        XCTAssertFalse(try options(["--demo"]).tls)
        XCTAssertTrue(try options(["--demo", "--tls"]).tls)
        XCTAssertEqual(try options(["--tls", "--demo"]).source, .demo, "in either order")
        XCTAssertEqual(try options(["--tags="]).tags, "")
        XCTAssertEqual(try options(["--tags", "-x"]).tags, "-x", "a single dash starts a value, not an option")
    }

    func testHelpWinsWhereverItIs() throws {
        XCTAssertEqual(try ArgumentParser.parse(["--help"]), .help)
        XCTAssertEqual(try ArgumentParser.parse(["-h"]), .help)
        XCTAssertEqual(try ArgumentParser.parse(["--demo", "--help", "--bogus"]), .help)
    }

    func testEveryMistakeSaysWhatIsWrong() {
        let cases: [([String], String)] = [
            (["--bogus"], "unknown option --bogus"),
            (["-x"], "unknown option -x"),
            (["demo"], "unexpected argument \"demo\""),
            (["--pages"], "--pages needs a value"),
            (["--tags", "--demo"], "--tags needs a value"),
            (["--pages", "0"], "--pages needs a whole number of at least 1, got \"0\""),
            (["--pages=-2"], "--pages needs a whole number of at least 1, got \"-2\""),
            (["--pages", "two"], "--pages needs a whole number of at least 1, got \"two\""),
            (["--pages", "1.5"], "--pages needs a whole number of at least 1, got \"1.5\""),
            (["--watch", "0"], "--watch needs a number of seconds above 0 (at most 86400), got \"0\""),
            (["--watch=soon"], "--watch needs a number of seconds above 0 (at most 86400), got \"soon\""),
            (["--timeout", "-1"], "--timeout needs a number of seconds above 0 (at most 86400), got \"-1\""),
            (["--timeout", "nan"], "--timeout needs a number of seconds above 0 (at most 86400), got \"nan\""),
            (["--timeout", "inf"], "--timeout needs a number of seconds above 0 (at most 86400), got \"inf\""),
            (["--timeout=100000"], "--timeout needs a number of seconds above 0 (at most 86400), got \"100000\""),
            (["--tagmode", "some"], "--tagmode must be \"any\" or \"all\", got \"some\""),
            (["--base-url", "ftp://host/"], "--base-url needs an http:// or https:// URL with a host, got \"ftp://host/\""),
            (["--base-url", "127.0.0.1:8080"], "--base-url needs an http:// or https:// URL with a host, got \"127.0.0.1:8080\""),
            (["--base-url="], "--base-url needs an http:// or https:// URL with a host, got \"\""),
            (["--plain=yes"], "--plain takes no value"),
            (["--demo=1"], "--demo takes no value"),
            (["--demo", "--tls=yes"], "--tls takes no value"),
            (["--tls"], "--tls serves the demo over https: it goes with --demo"),
            (["--offline", "--tls"], "--tls serves the demo over https: it goes with --demo"),
            (["--pages", "1", "--pages", "2"], "--pages given more than once"),
            (["--json", "--json"], "--json given more than once"),
            (["--demo", "--offline"], "--demo and --offline cannot be combined: choose one source"),
            (["--offline", "--base-url", "http://a/"], "--offline and --base-url cannot be combined: choose one source"),
            (["--plain", "--json"], "--plain and --json cannot be combined"),
            (["--images", "png"], "--images must be one of auto, kitty, iterm, sixel, blocks, truecolor, 256, none, got \"png\""),
            (["--images"], "--images needs a value"),
        ]
        for (arguments, expected) in cases {
            XCTAssertEqual(mistake(arguments), expected, "\(arguments)")
        }
    }

    func testImagesTakesEachModeAndDefaultsToAuto() throws {
        guard case .run(let defaults) = try ArgumentParser.parse([]) else { return XCTFail("not a run") }
        XCTAssertEqual(defaults.images, .auto)
        for mode in ImageMode.allCases {
            guard case .run(let options) = try ArgumentParser.parse(["--images=\(mode.rawValue.uppercased())"]) else {
                return XCTFail("not a run")
            }
            XCTAssertEqual(options.images, mode)
        }
    }

    func testUsageMentionsEveryOption() {
        for option in ["--demo", "--tls", "--base-url", "--offline", "--tags", "--tagmode", "--pages", "--watch", "--timeout",
                       "--plain", "--json", "--verbose", "--no-color", "--help", "--images"] {
            XCTAssertTrue(Usage.text.contains(option), option)
        }
    }

    func testExitCodes() {
        XCTAssertEqual(ExitCode.success.rawValue, 0)
        XCTAssertEqual(ExitCode.failure.rawValue, 1)
        XCTAssertEqual(ExitCode.usage.rawValue, 2)
    }
}
