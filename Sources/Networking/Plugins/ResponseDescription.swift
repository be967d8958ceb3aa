import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `Response:` line of `NetworkLoggerPlugin`, written the same on every platform in the
/// layout of Apple's `HTTPURLResponse.description`, which Moya logs (less the object's address):
///
/// ```
/// { URL: https://api.github.com/zen } { Status Code: 200, Headers {
///     "Content-Length" =     (
///         3
///     );
///     Server =     (
///         FeedServer
///     );
/// } }
/// ```
///
/// FoundationNetworking's own description (`{ status: 200, headers {`) differs, so the line is
/// written here rather than taken from `description`.
enum ResponseDescription {
    /// The line for a response to `url` with `statusCode` and `headers` (already redacted, in order).
    static func text(url: String?, statusCode: Int, headers: [(name: String, value: String)]) -> String {
        var text = "{ URL: \(url ?? "(null)") } { Status Code: \(statusCode), Headers {\n"
        for header in headers {
            text += "    \(quoted(header.name)) =     (\n        \(quoted(header.value))\n    );\n"
        }
        return text + "} }"
    }

    /// A string as a property list's description writes it: bare when it is letters, digits and
    /// underscores only, else in double quotes with quotes, backslashes and line breaks escaped.
    static func quoted(_ string: String) -> String {
        let bare = !string.isEmpty && string.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_")
        }
        if bare { return string }
        var escaped = ""
        for character in string {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }
}
