import Foundation

/// The header fields every request through the default transport carries unless it sets its
/// own, as Alamofire's `HTTPHeaders.default`: `Accept-Encoding`, `Accept-Language` and
/// `User-Agent`. `SessionOptions.headers` starts from `standard`; change or drop fields there.
///
/// ```swift
/// var options = SessionOptions()
/// options.headers["User-Agent"] = "MyApp/2.1"
/// options.headers["Accept-Language"] = nil
/// ```
public enum DefaultHeaders {
    /// This library's name and version in a `User-Agent` (no tags yet: the version of its API).
    public static let library = "Networking/1.0"

    /// The three fields, read once per process.
    public static let standard: [String: String] = [
        "Accept-Encoding": acceptEncoding,
        "Accept-Language": acceptLanguage(Locale.preferredLanguages),
        "User-Agent": userAgent(),
    ]

    /// The codings the socket transport decodes.
    public static let acceptEncoding = "gzip, deflate"

    /// At most six `languages`, the first with `q=1.0` and each next 0.1 less (Alamofire's
    /// quality encoding); `en;q=1.0` when there are none.
    public static func acceptLanguage(_ languages: [String]) -> String {
        let chosen = languages.isEmpty ? ["en"] : Array(languages.prefix(6))
        return chosen.enumerated().map { index, language in
            "\(language);q=\(index == 0 ? "1.0" : "0.\(10 - index)")"
        }.joined(separator: ", ")
    }

    /// `Executable/Version (bundle; build:N; OS Version) Networking/1.0`, as Alamofire's (whose
    /// last part names Alamofire): the executable's name, its bundle version and build when a
    /// bundle says them (`unknown` otherwise), and the operating system.
    public static func userAgent(executable: String = ProcessInfo.processInfo.processName,
                                 info: [String: Any]? = Bundle.main.infoDictionary,
                                 system: String = operatingSystem) -> String {
        let version = info?["CFBundleShortVersionString"] as? String ?? "unknown"
        let bundle = info?["CFBundleIdentifier"] as? String ?? executable
        let build = info?["CFBundleVersion"] as? String ?? "unknown"
        return "\(executable)/\(version) (\(bundle); build:\(build); \(system)) \(library)"
    }

    /// The operating system's name and version, as `Linux 6.1.0` or `macOS 14.2.0`.
    public static var operatingSystem: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(NetworkingPlatform.operatingSystemName) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }
}
