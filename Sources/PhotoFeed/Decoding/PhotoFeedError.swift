import Foundation

/// Why ``Photo/decode(feed:)`` could not produce a ``Photo``.
public enum PhotoFeedError: Error, LocalizedError, Equatable, Sendable {
    /// The bytes could not be repaired into JSON.
    case sanitizing(FeedSanitizerError)
    /// The repaired JSON does not have the feed's shape: `path` is where (e.g. `items[3].link`),
    /// `reason` says what failed.
    case decoding(path: String, reason: String)

    /// A sentence saying what failed and where.
    public var errorDescription: String? {
        switch self {
        case .sanitizing(let error):
            return error.errorDescription
        case .decoding(let path, let reason):
            return path.isEmpty
                ? "The feed could not be decoded: \(reason)"
                : "The feed could not be decoded at \(path): \(reason)"
        }
    }

    /// Classifies a `DecodingError` (or any other error thrown while decoding).
    init(decodingFailure error: any Error) {
        guard let decodingError = error as? DecodingError else {
            self = .decoding(path: "", reason: String(describing: error))
            return
        }
        switch decodingError {
        case .typeMismatch(let type, let context):
            self = .decoding(path: Self.path(context.codingPath), reason: "expected \(type): \(Self.reason(context))")
        case .valueNotFound(let type, let context):
            self = .decoding(path: Self.path(context.codingPath), reason: "missing \(type) value: \(Self.reason(context))")
        case .keyNotFound(let key, let context):
            self = .decoding(path: Self.path(context.codingPath + [key]), reason: "missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            self = .decoding(path: Self.path(context.codingPath), reason: Self.reason(context))
        @unknown default:
            self = .decoding(path: "", reason: String(describing: decodingError))
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        guard let underlying = context.underlyingError else { return context.debugDescription }
        return "\(context.debugDescription) (\(underlying))"
    }
}
