import Foundation

/// The `code` and `message` of a JSON error body: top level, or inside an `"error"` object.
/// `code` may be a string or an integer; `message` is also read from `msg` or `error_description`,
/// or from `"error"` when that is a string.
public struct ServerErrorBody: Sendable, Equatable {
    /// The server's error code, as text.
    public let code: String?
    /// The server's human message.
    public let message: String?

    /// Parses `data`; `nil` when it is not a JSON object or has neither a code nor a message.
    public init?(data: Data) {
        guard !data.isEmpty,
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        let nested = object["error"] as? [String: Any]
        let code = JSONText.text(object["code"]) ?? JSONText.text(nested?["code"])
        let message = Self.string(in: object) ?? nested.flatMap(Self.string(in:)) ?? (object["error"] as? String)
        guard code != nil || message != nil else { return nil }
        self.code = code
        self.message = message
    }

    private static func string(in object: [String: Any]) -> String? {
        (object["message"] as? String) ?? (object["msg"] as? String) ?? (object["error_description"] as? String)
    }

}
