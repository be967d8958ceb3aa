import Foundation
import XCTest


/// Reads the real Flickr captures in `../shared/fixtures/flickr`, relative to the package root.
enum Fixtures {
    static let directory: URL = ViewerProcess.packageRoot
        .appendingPathComponent("../shared/fixtures/flickr", isDirectory: true)
        .standardizedFileURL

    /// The bytes of the capture whose name starts with `prefix`, or skips the test.
    static func capture(_ prefix: String) throws -> Data {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard let name = names.sorted().first(where: { $0.hasPrefix(prefix) }) else {
            throw XCTSkip("Flickr capture \(prefix)* not found in \(directory.path)")
        }
        return try Data(contentsOf: directory.appendingPathComponent(name))
    }
}
