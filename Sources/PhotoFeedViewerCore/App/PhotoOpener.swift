import Foundation

/// Opens a photo's page: by default with `xdg-open` or `open`, whichever is found first on
/// `PATH`; tests give their own.
package struct PhotoOpener: Sendable {
    /// What opening did.
    package enum Outcome: Equatable, Sendable {
        /// The page was handed to this program.
        case opened(program: String)
        /// No opener exists; the caller shows the URL instead.
        case unavailable
    }

    /// Opens `url` in the browser and says what happened.
    package let open: @Sendable (URL) -> Outcome

    /// An opener that hands each URL to `open` (tests pass a recorder here).
    package init(open: @escaping @Sendable (URL) -> Outcome) {
        self.open = open
    }

    /// The first of `xdg-open` and `open` found on `environment`'s `PATH`, started without
    /// waiting for it, its output discarded; `.unavailable` when there is neither.
    package static func system(environment: [String: String]) -> PhotoOpener {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let program = ["xdg-open", "open"].lazy.compactMap { name in
            directories.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        }.first
        return PhotoOpener { url in
            guard let program else { return .unavailable }
            let process = Process()
            process.executableURL = program
            process.arguments = [url.absoluteString]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return .unavailable
            }
            return .opened(program: program.lastPathComponent)
        }
    }
}
