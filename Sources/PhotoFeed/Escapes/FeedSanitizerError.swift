import Foundation

/// Why ``FeedSanitizer/sanitize(_:)`` rejected a feed; offsets count bytes from the start of the input.
public enum FeedSanitizerError: Error, LocalizedError, Equatable, Sendable {
    /// The input is empty, only whitespace, or a wrapper around nothing.
    case empty
    /// A string ends in a backslash with no byte after it.
    case trailingBackslash(offset: Int)
    /// `jsonFlickrFeed(` is not closed by `)` (optionally followed by `;`); the offset is where `)` was expected.
    case unterminatedWrapper(offset: Int)
    /// The bytes at `offset` are not well-formed UTF-8.
    case invalidUTF8(offset: Int)
    /// The string opened by the quote at `offset` never closes.
    case unterminatedString(offset: Int)

    /// The byte offset the error points at, if any.
    public var offset: Int? {
        switch self {
        case .empty:
            return nil
        case .trailingBackslash(let offset), .unterminatedWrapper(let offset), .invalidUTF8(let offset),
            .unterminatedString(let offset):
            return offset
        }
    }

    /// A sentence saying what is wrong and where.
    public var errorDescription: String? {
        switch self {
        case .empty:
            return "The feed is empty."
        case .trailingBackslash(let offset):
            return "The feed ends in a backslash inside a string at byte \(offset)."
        case .unterminatedWrapper(let offset):
            return "The jsonFlickrFeed( wrapper is not closed by ')' at byte \(offset)."
        case .invalidUTF8(let offset):
            return "The feed is not valid UTF-8 at byte \(offset)."
        case .unterminatedString(let offset):
            return "The string starting at byte \(offset) is never closed."
        }
    }
}
