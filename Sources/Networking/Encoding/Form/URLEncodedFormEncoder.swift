import Foundation

/// Encodes an `Encodable` value as `application/x-www-form-urlencoded` text (Alamofire's
/// `URLEncodedFormEncoder`), with Alamofire's defaults:
/// - the root must be keyed (a struct, class or `[String: _]`), else `Error.invalidRootObject`;
/// - nested values are written `parent[child]=v` (`keyPathEncoding`), arrays `key[]=v`
///   (`arrayEncoding`), `Bool` as `1`/`0`, `Data` as Base64, `Date` as its `Encodable` form
///   (seconds since 2001), `nil` dropped with its key, a space as `%20`;
/// - pairs are sorted at every level (`alphabetizeKeyValuePairs`), so the text is stable;
/// - keys and values are percent-encoded except `allowedCharacters` (RFC 3986 unreserved
///   characters and `?` `/`).
///
/// ```swift
/// let text: String = try URLEncodedFormEncoder().encode(["a": ["b": "c d"]])   // "a%5Bb%5D=c%20d"
/// ```
public final class URLEncodedFormEncoder: Sendable {
    /// Why a value cannot be encoded as a form.
    public enum Error: Swift.Error, Sendable, Equatable {
        /// The root was not keyed; the text describes what it was.
        case invalidRootObject(String)
    }

    /// Whether pairs are sorted (at every level); `false` keeps the order the value wrote them.
    public let alphabetizeKeyValuePairs: Bool
    /// How array keys are written.
    public let arrayEncoding: ArrayEncoding
    /// How `Bool` values are written.
    public let boolEncoding: BoolEncoding
    /// How `Data` values are written.
    public let dataEncoding: DataEncoding
    /// How `Date` values are written.
    public let dateEncoding: DateEncoding
    /// How each key is rewritten.
    public let keyEncoding: KeyEncoding
    /// How a nested key is joined to its parent's.
    public let keyPathEncoding: KeyPathEncoding
    /// How `nil` values are written.
    public let nilEncoding: NilEncoding
    /// How spaces are written.
    public let spaceEncoding: SpaceEncoding
    /// The characters left as they are; every other one is percent-encoded (UTF-8).
    public let allowedCharacters: CharacterSet

    /// An encoder; every default is Alamofire's.
    public init(alphabetizeKeyValuePairs: Bool = true,
                arrayEncoding: ArrayEncoding = .brackets,
                boolEncoding: BoolEncoding = .numeric,
                dataEncoding: DataEncoding = .base64,
                dateEncoding: DateEncoding = .deferredToDate,
                keyEncoding: KeyEncoding = .useDefaultKeys,
                keyPathEncoding: KeyPathEncoding = .brackets,
                nilEncoding: NilEncoding = .dropKey,
                spaceEncoding: SpaceEncoding = .percentEscaped,
                allowedCharacters: CharacterSet = .afURLQueryAllowed) {
        self.alphabetizeKeyValuePairs = alphabetizeKeyValuePairs
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dataEncoding = dataEncoding
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.keyPathEncoding = keyPathEncoding
        self.nilEncoding = nilEncoding
        self.spaceEncoding = spaceEncoding
        self.allowedCharacters = allowedCharacters
    }

    /// The form text for `value` (no leading `?`). Throws `Error.invalidRootObject`, or what the
    /// value's `encode(to:)` or a custom data or date encoding threw.
    public func encode(_ value: any Encodable) throws -> String {
        let root = FormNode()
        try FormValueEncoder(node: root, options: self).encodeValue(value)
        switch root.kind {
        case .unset:
            return ""
        case .object(let pairs):
            return FormSerializer(options: self).serialize(pairs)
        case .string(let text):
            throw Error.invalidRootObject("string(\(text))")
        case .array(let elements):
            throw Error.invalidRootObject("array of \(elements.count)")
        }
    }

    /// The form text for `value` as UTF-8 bytes.
    public func encode(_ value: any Encodable) throws -> Data {
        let text: String = try encode(value)
        return Data(text.utf8)
    }
}
