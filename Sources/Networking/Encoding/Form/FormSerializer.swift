import Foundation

/// Writes an encoded form as text: `key=value` pairs joined with `&`, nested keys and array
/// keys as the encoder's options say, each level sorted when `alphabetizeKeyValuePairs`.
struct FormSerializer {
    let options: URLEncodedFormEncoder
    /// The allowed characters plus the space, which `spaceEncoding` writes afterwards.
    private let allowed: CharacterSet

    init(options: URLEncodedFormEncoder) {
        self.options = options
        var allowed = options.allowedCharacters
        allowed.insert(" ")
        self.allowed = allowed
    }

    func serialize(_ pairs: [(key: String, value: FormNode)]) -> String {
        join(pairs.map { serialize($0.value, key: options.keyEncoding.encode($0.key)) })
    }

    private func serialize(_ node: FormNode, key: String) -> String {
        switch node.kind {
        case .unset:
            return ""
        case .string(let text):
            return escape(key) + "=" + escape(text)
        case .array(let elements):
            return join(elements.enumerated().map { index, element in
                serialize(element, key: options.arrayEncoding.encode(key, atIndex: index))
            })
        case .object(let pairs):
            return join(pairs.map { pair in
                serialize(pair.value, key: key + options.keyPathEncoding.encodeKeyPath(options.keyEncoding.encode(pair.key)))
            })
        }
    }

    /// Joins non-empty segments with `&`, sorted when the options say so.
    private func join(_ segments: [String]) -> String {
        let kept = segments.filter { !$0.isEmpty }
        return (options.alphabetizeKeyValuePairs ? kept.sorted() : kept).joined(separator: "&")
    }

    private func escape(_ text: String) -> String {
        let escaped = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        return options.spaceEncoding.encode(escaped)
    }
}
