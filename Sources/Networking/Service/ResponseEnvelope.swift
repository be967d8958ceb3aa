import Foundation

/// Where a JSON API puts its verdict, code, message and payload, so `NetworkService` can check
/// the verdict and decode only the payload.
///
/// ```swift
/// // {"isSuccess": true, "code": 0, "message": "", "result": {...}}
/// ResponseEnvelope.resultEnvelope
/// // {"code": 0, "msg": "ok", "data": {"hasMore": true, "list": [...]}}
/// ResponseEnvelope.dataEnvelope                      // decode ListPage<Item>
/// ResponseEnvelope.dataEnvelope.payload(at: "data.list")   // decode [Item]
/// ```
public struct ResponseEnvelope: Sendable, Equatable {
    /// How an envelope says whether the call succeeded.
    public enum SuccessRule: Sendable, Equatable {
        /// Every body succeeds (no verdict in the body).
        case always
        /// A boolean at this key path: `true` (or a non-zero number) is success.
        case flag(key: String)
        /// The code at `codeKey` is one of these; codes compare as text, so `0` and `"0"` match.
        case codes([String])
    }

    /// How success is decided.
    public var success: SuccessRule
    /// The key path of the server's code, if the envelope has one.
    public var codeKey: String?
    /// The key path of the server's message, if the envelope has one.
    public var messageKey: String?
    /// The key path of the payload (dot separated, e.g. `"data.list"`); `nil` decodes the whole body.
    public var payloadKeyPath: String?

    /// An envelope whose verdict is `success` and whose code, message and payload sit at the
    /// given key paths (dot separated; `nil` for what the envelope lacks).
    public init(success: SuccessRule, codeKey: String? = nil, messageKey: String? = nil, payloadKeyPath: String? = nil) {
        self.success = success
        self.codeKey = codeKey
        self.messageKey = messageKey
        self.payloadKeyPath = payloadKeyPath
    }

    /// No envelope: the whole body is the payload.
    public static let none = ResponseEnvelope(success: .always)

    /// `{isSuccess, code, message, result}`: success when `isSuccess` is true; the payload is `result`.
    public static let resultEnvelope = ResponseEnvelope(
        success: .flag(key: "isSuccess"), codeKey: "code", messageKey: "message", payloadKeyPath: "result")

    /// `{code, msg, data}`: success when `code` is 0 or 200; the payload is `data`
    /// (a `{hasMore, list}` page decodes as `ListPage`).
    public static let dataEnvelope = ResponseEnvelope(
        success: .codes(["0", "200"]), codeKey: "code", messageKey: "msg", payloadKeyPath: "data")

    /// A copy whose payload is at `keyPath`.
    public func payload(at keyPath: String?) -> ResponseEnvelope {
        var copy = self
        copy.payloadKeyPath = keyPath
        return copy
    }

    /// Checks the verdict of `response` and decodes its payload as `T`.
    ///
    /// Errors: `EnvelopeError.server` when the envelope reports a failure,
    /// `EnvelopeError.malformed` when the verdict is missing or not understood,
    /// `ProviderError.jsonMapping` when the body is not JSON or the payload is missing,
    /// `ProviderError.objectMapping` when the payload does not decode.
    public func decode<T: Decodable>(
        _ type: T.Type, from response: Response, using decoder: JSONDecoder = JSONDecoder()
    ) throws -> T {
        try validate(response)
        return try response.map(type, atKeyPath: payloadKeyPath, using: decoder)
    }

    /// Throws unless the envelope of `response` reports success; see `decode(_:from:using:)`.
    public func validate(_ response: Response) throws {
        if success == .always { return }
        guard let root = try response.mapJSON() as? [String: Any] else {
            throw EnvelopeError.malformed(reason: "the body is not a JSON object", response: response)
        }
        let code = codeKey.flatMap { JSONText.text(JSONKeyPath.value(in: root, at: $0)) }
        let message = messageKey.flatMap { JSONKeyPath.value(in: root, at: $0) as? String }
        let succeeded: Bool
        switch success {
        case .always:
            succeeded = true
        case .flag(let key):
            guard let flag = JSONKeyPath.value(in: root, at: key).flatMap(Self.bool) else {
                throw EnvelopeError.malformed(reason: "no boolean at \"\(key)\"", response: response)
            }
            succeeded = flag
        case .codes(let codes):
            guard let code else {
                throw EnvelopeError.malformed(reason: "no code at \"\(codeKey ?? "")\"", response: response)
            }
            succeeded = codes.contains(code)
        }
        if !succeeded {
            throw EnvelopeError.server(code: code, message: message, response: response)
        }
    }

    private static func bool(_ value: Any) -> Bool? {
        if let bool = value as? Bool { return bool }
        if let number = value as? NSNumber { return number.doubleValue != 0 }
        switch (value as? String)?.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

}
