import Foundation

extension String {
    /// The documents' escape stripping, kept for compatibility: removes every `\"`, then every `\`.
    ///
    /// It corrupts valid escapes (`\u00e9`, `\n`, `\"`) and breaks JSON whose strings end in a
    /// backslash; use ``FeedSanitizer/sanitize(_:)`` to repair feeds instead.
    public var removedEscapeCharacters: String {
        replacingOccurrences(of: "\\\"", with: "").replacingOccurrences(of: "\\", with: "")
    }
}
