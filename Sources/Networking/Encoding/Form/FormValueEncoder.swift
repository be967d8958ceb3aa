import Foundation

/// The `Encoder` behind `URLEncodedFormEncoder`: writes a value into a `FormNode`: strings and
/// numbers as their text (`1.0` stays `1.0`, as Alamofire writes it), `Bool`, `Data`, `Date` and
/// `nil` as the options say, `Decimal` and `URL` as their text, every other value through its
/// own `encode(to:)`.
struct FormValueEncoder: Encoder {
    let node: FormNode
    let options: URLEncodedFormEncoder
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// An encoder for `child`, one key deeper.
    func nested(_ child: FormNode, key: any CodingKey) -> FormValueEncoder {
        FormValueEncoder(node: child, options: options, codingPath: codingPath + [key])
    }

    /// Writes `value` into `node`.
    func encodeValue(_ value: any Encodable) throws {
        switch value {
        case let text as String:
            node.kind = .string(text)
        case let number as any FixedWidthInteger:
            node.kind = .string(number.description)
        case let number as Double:
            node.kind = .string(number.description)
        case let number as Float:
            node.kind = .string(number.description)
        case let bool as Bool:
            node.kind = .string(options.boolEncoding.encode(bool))
        case let decimal as Decimal:
            node.kind = .string(decimal.description)
        case let url as URL:
            node.kind = .string(url.absoluteString)
        case let data as Data:
            guard let text = try options.dataEncoding.encode(data) else { return try data.encode(to: self) }
            node.kind = .string(text)
        case let date as Date:
            guard let text = try options.dateEncoding.encode(date) else { return try date.encode(to: self) }
            node.kind = .string(text)
        default:
            try value.encode(to: self)
        }
    }

    /// Writes `nil` into `node`; false when the key is to be dropped.
    func encodeNil() -> Bool {
        guard let text = options.nilEncoding.encodeNil() else { return false }
        node.kind = .string(text)
        return true
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
        init(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: FormValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func child(_ key: any CodingKey) -> FormValueEncoder {
            encoder.nested(encoder.node.child(forKey: key.stringValue), key: key)
        }

        mutating func encodeNil(forKey key: Key) throws {
            if !child(key).encodeNil() { encoder.node.removeChild(forKey: key.stringValue) }
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try child(key).encodeValue(value)
        }

        // `nil` optionals go through `nilEncoding` (Swift's default skips them), as Alamofire's do.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

        private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
            try encodeIfPresent(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey> {
            child(key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            child(key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            child(AnyKey(stringValue: "super"))
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            child(key)
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: FormValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        private(set) var count = 0

        init(encoder: FormValueEncoder) {
            self.encoder = encoder
        }

        private mutating func next() -> FormValueEncoder {
            defer { count += 1 }
            return encoder.nested(encoder.node.appendElement(), key: AnyKey(intValue: count))
        }

        mutating func encodeNil() throws {
            let element = FormNode()
            guard FormValueEncoder(node: element, options: encoder.options).encodeNil() else { return }
            next().node.kind = element.kind
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try next().encodeValue(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            next().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            next().unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            next()
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: FormValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws {
            _ = encoder.encodeNil()
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.encodeValue(value)
        }
    }
}
