import Foundation
import XCTest

/// The real Flickr captures in `../shared/fixtures/flickr`, beside the package root; a test
/// that needs one is skipped, saying why, when they are absent.
public enum FlickrCaptures {
    /// The folder of the captures.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/fixtures/flickr", isDirectory: true)
        .standardizedFileURL

    /// The bytes of the capture whose name starts with `prefix` (e.g. `"01_"`), or skips the test.
    public static func data(_ prefix: String) throws -> Data {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard let name = names.sorted().first(where: { $0.hasPrefix(prefix) }) else {
            throw XCTSkip("reads real-world Flickr captures kept outside the repository; capture \(prefix)* is not here (docs/TESTING.md)")
        }
        return try Data(contentsOf: directory.appendingPathComponent(name))
    }
}
