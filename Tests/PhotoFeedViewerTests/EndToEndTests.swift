import FeedServer
import Foundation
import PhotoFeed
import PhotoFeedViewerCore
import TestSupport
import XCTest

/// The built `photo-feed` binary as a subprocess, against `FeedServer` on 127.0.0.1.
final class EndToEndTests: LeakCheckingTestCase {
    private var servers: [FeedServer] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    private func startServer(_ configuration: FeedServer.Configuration = .init()) throws -> FeedServer {
        let server = try FeedServer(configuration: configuration)
        servers.append(server)
        return server
    }

    private func jsonObjects(_ outcome: ViewerProcess.Outcome) throws -> [[String: Any]] {
        try outcome.stdoutLines.map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
        }
    }

    func testDemoTwoPagesAsJSONGivesTwoSectionsOfTwentyPhotos() throws {
        let outcome = try ViewerProcess.run(["--demo", "--pages", "2", "--json"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.stderr, "")
        let objects = try jsonObjects(outcome)
        XCTAssertEqual(objects.count, 40)
        XCTAssertEqual(objects.compactMap { $0["section"] as? Int }, Array(repeating: 1, count: 20) + Array(repeating: 2, count: 20))
        XCTAssertEqual(Set(objects.compactMap { $0["link"] as? String }).count, 40)
        for key in ["title", "link", "author", "authorID", "media", "published", "tags"] {
            XCTAssertTrue(objects.allSatisfy { $0[key] is String }, key)
        }
        // The links are the demo server's own pages, and each line says they end with the run.
        let local = try XCTUnwrap(objects.first?["local"] as? String)
        let port = try XCTUnwrap(local.firstMatch(of: /^demo server 127\.0\.0\.1:(\d+), gone once photo-feed exits$/)?.1)
        for object in objects {
            XCTAssertEqual(object["local"] as? String, local)
            XCTAssertTrue((object["link"] as? String)?.hasPrefix("http://127.0.0.1:\(port)/photos/") ?? false, "\(object)")
            XCTAssertTrue((object["media"] as? String)?.hasPrefix("http://127.0.0.1:\(port)/images/") ?? false, "\(object)")
        }
    }

    /// `--demo --tls`: the demo server speaks TLS with the embedded test certificate, the viewer
    /// trusts its CA, and the feed, its links and its pictures are all https.
    func testDemoOverTLSServesTheFeedOverHTTPS() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let outcome = try ViewerProcess.run(["--demo", "--tls", "--pages", "1", "--json", "--verbose"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let objects = try jsonObjects(outcome)
        XCTAssertEqual(objects.count, 20)
        let local = try XCTUnwrap(objects.first?["local"] as? String)
        let port = try XCTUnwrap(local.firstMatch(of: /^demo server localhost:(\d+), gone once photo-feed exits$/)?.1)
        for object in objects {
            XCTAssertTrue((object["link"] as? String)?.hasPrefix("https://localhost:\(port)/photos/") ?? false, "\(object)")
            XCTAssertTrue((object["media"] as? String)?.hasPrefix("https://localhost:\(port)/images/") ?? false, "\(object)")
        }
        // The request went out as https (the logger's line), and came back verified.
        XCTAssertTrue(outcome.stderr.contains("https://localhost:\(port)/services/feeds/photos_public.gne"), outcome.stderr)
    }

    func testBaseURLAtAServerServingARealCaptureGivesExactlyItsPhotos() throws {
        let capture = try FlickrCaptures.data("02_")
        let expected = try Photo.decode(feed: capture)
        let server = try startServer(.init(feedOverride: capture))

        let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--pages=1", "--json"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let objects = try jsonObjects(outcome)
        XCTAssertEqual(objects.compactMap { $0["link"] as? String }, expected.items.map(\.link))
        XCTAssertTrue(objects.allSatisfy { $0["local"] == nil }, "only --demo's links end with the run")
        XCTAssertEqual(objects.compactMap { $0["title"] as? String }, expected.items.map(\.title))
        XCTAssertEqual(objects.compactMap { $0["author"] as? String }, expected.items.map(PhotoText.author))
        XCTAssertEqual(server.requestCount(path: "/services/feeds/photos_public.gne"), 1)
    }

    func testPlainOutputAndTagsReachTheServer() throws {
        let server = try startServer(.init(itemsPerPage: 3))

        let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--tags", "cats", "--tagmode", "all",
                                             "--pages", "2", "--plain"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let lines = outcome.stdoutLines
        XCTAssertEqual(lines.count, 8)
        XCTAssertEqual(lines[0], "Section 1 - 3 photos")
        XCTAssertEqual(lines[4], "Section 2 - 3 photos")
        XCTAssertTrue(lines[1].hasPrefix("  ") && lines[1].contains(" | \(server.baseURL.absoluteString)photos/"), lines[1])
        XCTAssertFalse(outcome.stdout.contains("\u{1B}"), "no escapes when stdout is not a terminal")
        XCTAssertFalse(outcome.stdout.contains("local:"), "only --demo's links end with the run")
    }

    func testDemoAsPlainTextMarksItsLinksLocalAsJSONDoes() throws {
        let outcome = try ViewerProcess.run(["--demo", "--pages", "1", "--plain"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let photos = outcome.stdoutLines.dropFirst()
        XCTAssertEqual(photos.count, 20, outcome.stdout)
        let first = try XCTUnwrap(photos.first)
        let port = try XCTUnwrap(first.firstMatch(of: /\| local: demo server 127\.0\.0\.1:(\d+), gone once photo-feed exits$/)?.1, first)
        for line in photos {
            XCTAssertTrue(line.hasSuffix(" | local: demo server 127.0.0.1:\(port), gone once photo-feed exits"), line)
            XCTAssertTrue(line.contains(" | http://127.0.0.1:\(port)/photos/"), line)
        }
    }

    func testPlainAndJSONPrintNoImageBytesWhateverImagesSays() throws {
        let server = try startServer(.init(itemsPerPage: 3))
        // Each mode is one more run of the whole program for the same threads; under the thread
        // sanitizer (a second or so a run) one mode a format watches them, the plain run checks all.
        let modes = isThreadSanitizerBuild ? ["sixel"] : ["kitty", "iterm", "sixel", "blocks"]
        for format in ["--plain", "--json"] {
            for mode in modes {
                let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--pages", "1", format, "--images", mode],
                                                    environment: ["COLORTERM": "truecolor"])
                XCTAssertEqual(outcome.status, 0, outcome.stderr)
                XCTAssertEqual(outcome.stdoutLines.count, format == "--plain" ? 4 : 3)
                XCTAssertFalse(outcome.stdout.contains("\u{1B}"), "\(format) \(mode): no escape sequences at all")
                XCTAssertFalse(outcome.stdout.contains("▀"), "\(format) \(mode)")
                XCTAssertTrue(outcome.stderr.contains("--images applies to the full screen only"), "not silence: \(outcome.stderr)")
            }
        }
        XCTAssertEqual(server.imageRequestCount, 0, "no picture is even requested")
    }

    func testOfflineShowsTheBundledSampleWithoutASocket() throws {
        let outcome = try ViewerProcess.run(["--offline", "--pages", "1"], environment: ["NO_COLOR": "1"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.stdoutLines.first, "Section 1 - 5 photos")
        XCTAssertEqual(outcome.stdoutLines.count, 6)
        XCTAssertTrue(outcome.stdout.contains("Grandma's garden | O'Brien"))
    }

    func testTheEnvironmentsProxyCarriesRequestsButNeverTheDemosOwn() throws {
        let gone = try startServer()
        let deadProxy = "http://127.0.0.1:\(gone.port)"
        gone.stop()
        let server = try startServer()
        defer { server.stop() }
        let environment = ["http_proxy": deadProxy, "https_proxy": deadProxy]

        // A feed elsewhere goes through the proxy, as curl and URLSession on Linux send it.
        let proxied = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--pages", "1", "--json"], environment: environment)
        XCTAssertEqual(proxied.status, 1)
        XCTAssertEqual(proxied.stderr, "photo-feed: Could not connect to 127.0.0.1:\(gone.port) (connection refused) "
                       + "(could not reach 127.0.0.1:\(server.port)).\n", "the proxy is named, and the server it was for")

        // The demo's server is in the process: direct.
        let demo = try ViewerProcess.run(["--demo", "--pages", "1", "--json"], environment: environment)
        XCTAssertEqual(demo.status, 0, demo.stderr)
        XCTAssertEqual(try jsonObjects(demo).count, 20)
    }

    func testARefusedPortExitsOneWithNoConnection() throws {
        let server = try startServer()
        let url = server.baseURL.absoluteString
        server.stop()

        let outcome = try ViewerProcess.run(["--base-url", url, "--pages", "1", "--json"])

        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertEqual(outcome.stderr, "photo-feed: Could not connect to 127.0.0.1:\(server.port) (connection refused).\n")
    }

    func testA503ExitsOneWithTheStatusAndTheServersMessage() throws {
        let server = try startServer(.init(feedFaultRate: 1))

        let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--pages", "1"])

        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, "photo-feed: Server error (503 Service Unavailable) from http://127.0.0.1:\(server.port)/services/feeds/photos_public.gne: Injected feed fault\n")
    }

    func testAHangWithATimeoutOfOneSecondExitsOneTimedOut() throws {
        let server = try startServer(.init(feedLatency: .seconds(60)))

        let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--pages", "1", "--timeout", "1"])

        XCTAssertFalse(outcome.timedOut)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, "photo-feed: The request timed out.\n")
    }

    func testABodyThatIsNotAFeedExitsOneSayingSo() throws {
        let server = try startServer(.init(feedOverride: Data(#"{"title":"x","link":"y","items":[{"title":1}]}"#.utf8)))

        let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--pages", "1"])

        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("photo-feed: The answer is not a photo feed. The feed could not be decoded at items[0].title"),
                      outcome.stderr)
    }

    func testUsageMistakesExitTwoWithOneLineAndAPointerToHelp() throws {
        let outcome = try ViewerProcess.run(["--pages", "0"])
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertEqual(outcome.stderr, "photo-feed: --pages needs a whole number of at least 1, got \"0\"\nTry 'photo-feed --help' for more information.\n")

        let images = try ViewerProcess.run(["--images", "ascii"])
        XCTAssertEqual(images.status, 2)
        XCTAssertEqual(images.stderr.split(separator: "\n").first,
                       "photo-feed: --images must be one of auto, kitty, iterm, sixel, blocks, truecolor, 256, none, got \"ascii\"")

        let unknown = try ViewerProcess.run(["--colour"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.hasPrefix("photo-feed: unknown option --colour"))
    }

    func testHelpExitsZeroWithTheUsageOnStdout() throws {
        let outcome = try ViewerProcess.run(["--help"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertTrue(outcome.stdout.hasPrefix("Usage: photo-feed"))
        XCTAssertEqual(outcome.stderr, "")
    }

    func testVerboseLogsTheRequestToStderrOnly() throws {
        let server = try startServer(.init(itemsPerPage: 2))

        let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--pages", "1", "--json", "--verbose"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.stdoutLines.count, 2)
        XCTAssertTrue(outcome.stderr.contains("services/feeds/photos_public.gne"), outcome.stderr)
    }

    func testWatchReloadsOnTheIntervalUntilThePagesAreLoaded() throws {
        let server = try startServer(.init(itemsPerPage: 2))

        let outcome = try ViewerProcess.run(["--base-url", server.baseURL.absoluteString, "--watch", "0.2", "--pages", "3", "--json"])

        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(try jsonObjects(outcome).compactMap { $0["section"] as? Int }, [1, 1, 2, 2, 3, 3])
        XCTAssertEqual(server.requestCount, 3)
    }

    func testAHalfSentBodyExitsOneWithoutACrash() throws {
        let server = try startServer()
        let base = server.baseURL.appendingPathComponent("half").absoluteString + "/"

        let outcome = try ViewerProcess.run(["--base-url", base, "--pages", "1", "--timeout", "5"])

        XCTAssertEqual(outcome.status, 1, "stderr: \(outcome.stderr)")
        XCTAssertEqual(outcome.stderr, "photo-feed: The network connection was lost (while talking to 127.0.0.1:\(server.port)).\n")
        XCTAssertEqual(outcome.stdout, "")
    }

    /// The response that makes FoundationNetworking 6.3 kill the process: `http://` goes through
    /// `SocketTransport`, so the viewer exits 1 with a message instead.
    func testAResponseCutInsideItsHeadersExitsOneWithAMessageInsteadOfCrashing() throws {
        let server = try startServer()
        let base = server.baseURL.appendingPathComponent("cut-headers").absoluteString + "/"

        let outcome = try ViewerProcess.run(["--base-url", base, "--pages", "1", "--timeout", "5"])

        XCTAssertEqual(outcome.status, 1, "stderr: \(outcome.stderr)")
        XCTAssertEqual(outcome.stderr, "photo-feed: The network connection was lost (while talking to 127.0.0.1:\(server.port)).\n")
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertEqual(server.requestCount(path: "/cut-headers/services/feeds/photos_public.gne"), 1)
    }
}
