import Foundation

/// Decoding a response body.
extension Response {
    /// The body parsed by `JSONSerialization` (fragments allowed). Empty data gives `NSNull()`
    /// when `failsOnEmptyData` is `false`; otherwise failures throw `ProviderError.jsonMapping(self)`.
    public func mapJSON(failsOnEmptyData: Bool = true) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            if data.isEmpty && !failsOnEmptyData { return NSNull() }
            throw ProviderError.jsonMapping(self)
        }
    }

    /// The body as UTF-8 text, or the string at `keyPath` (dot separated, through JSON objects).
    /// Throws `ProviderError.stringMapping(self)` when there is no such string, or
    /// `ProviderError.jsonMapping(self)` when a key path is given and the body is not JSON.
    public func mapString(atKeyPath keyPath: String? = nil) throws -> String {
        if let keyPath {
            guard let string = JSONKeyPath.value(in: try mapJSON(), at: keyPath) as? String else {
                throw ProviderError.stringMapping(self)
            }
            return string
        }
        guard let string = String(data: data, encoding: .utf8) else {
            throw ProviderError.stringMapping(self)
        }
        return string
    }

    /// Decodes the body, or the value at `keyPath`, as `D`.
    ///
    /// As Moya: a missing key path throws `.jsonMapping(self)` unless `failsOnEmptyData` is
    /// `false`, in which case the whole body is decoded; a scalar at the key path is decoded
    /// directly; with empty data and `failsOnEmptyData == false`, `D` is decoded from `{}`, then
    /// from `[{}]`; a decoding failure throws `.objectMapping(error, self)`.
    ///
    /// The common case (the whole body, not empty or required) is `@inlinable`, so a caller's
    /// module decodes its own `D` without looking up generic metadata at run time.
    @inlinable
    public func map<D: Decodable>(_ type: D.Type,
                                  atKeyPath keyPath: String? = nil,
                                  using decoder: JSONDecoder = JSONDecoder(),
                                  failsOnEmptyData: Bool = true) throws -> D {
        guard keyPath == nil, failsOnEmptyData || !data.isEmpty else {
            return try mapAtKeyPath(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData)
        }
        do {
            return try decoder.decode(D.self, from: data)
        } catch {
            throw ProviderError.objectMapping(error, self)
        }
    }

    /// `map(_:atKeyPath:using:failsOnEmptyData:)` with a key path or empty data allowed.
    @usableFromInline
    func mapAtKeyPath<D: Decodable>(_ type: D.Type, atKeyPath keyPath: String?, using decoder: JSONDecoder,
                                    failsOnEmptyData: Bool) throws -> D {
        var jsonData = data
        if let keyPath {
            let root = try mapJSON(failsOnEmptyData: failsOnEmptyData)
            if let value = JSONKeyPath.value(in: root, at: keyPath) {
                jsonData = try serialized(value)
            } else if failsOnEmptyData {
                throw ProviderError.jsonMapping(self)
            }
        }
        do {
            if jsonData.isEmpty && !failsOnEmptyData {
                if let value = try? decoder.decode(D.self, from: Data("{}".utf8)) { return value }
                if let value = try? decoder.decode(D.self, from: Data("[{}]".utf8)) { return value }
            }
            return try decoder.decode(D.self, from: jsonData)
        } catch {
            throw ProviderError.objectMapping(error, self)
        }
    }

    private func serialized(_ value: Any) throws -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        } catch {
            throw ProviderError.jsonMapping(self)
        }
    }
}
