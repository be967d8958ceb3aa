import Foundation

/// Masks the values of sensitive names in headers, query strings, form bodies and JSON bodies.
/// Names are compared case-insensitively.
public struct Redactor: Sendable, Equatable {
    /// What replaces a hidden value.
    public static let mask = "<redacted>"

    /// The names whose values are hidden, lowercased.
    public let names: Set<String>

    /// Creates a redactor for `names`.
    public init(names: Set<String>) {
        self.names = Set(names.map { $0.lowercased() })
    }

    /// Whether `name`'s value is hidden.
    public func hides(_ name: String) -> Bool {
        names.contains(name.lowercased())
    }

    /// `headers` with hidden values masked, sorted by name.
    public func headers(_ headers: [String: String]) -> [(name: String, value: String)] {
        headers.keys.sorted().map { name in
            (name, hides(name) ? Self.mask : headers[name] ?? "")
        }
    }

    /// `url` with the values of hidden query items masked.
    public func url(_ url: String) -> String {
        guard let queryStart = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[queryStart...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: queryStart)..<fragmentStart]
        return String(url[...queryStart]) + formText(String(query)) + String(url[fragmentStart...])
    }

    /// Free text (a target's or an error's description) with hidden values masked where they
    /// appear as `"name": "value"` (a dictionary's description) or as `name=value` (a query).
    public func text(_ text: String) -> String {
        queryPairs(in: quotedPairs(in: text))
    }

    private func quotedPairs(in text: String) -> String {
        var result = text
        for name in names {
            var searchStart = result.startIndex
            let key = "\"\(name)\": \""
            while let keyRange = result.range(of: key, options: .caseInsensitive, range: searchStart..<result.endIndex) {
                var index = keyRange.upperBound
                var escaped = false
                while index < result.endIndex, escaped || result[index] != "\"" {
                    escaped = !escaped && result[index] == "\\"
                    index = result.index(after: index)
                }
                result.replaceSubrange(keyRange.upperBound..<index, with: Self.mask)
                searchStart = result.index(keyRange.upperBound, offsetBy: Self.mask.count)
            }
        }
        return result
    }

    private func queryPairs(in text: String) -> String {
        guard !names.isEmpty, text.contains("=") else { return text }
        var result = ""
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {
            let before = rest[..<equals]
            let nameStart = before.lastIndex(where: { Self.separators.contains($0) }).map { before.index(after: $0) } ?? before.startIndex
            let rawName = String(before[nameStart...])
            let name = rawName.removingPercentEncoding ?? rawName
            let afterEquals = rest.index(after: equals)
            let valueEnd = rest[afterEquals...].firstIndex(where: { Self.separators.contains($0) }) ?? rest.endIndex
            result += rest[...equals]
            if !rawName.isEmpty, hides(Self.baseName(name)) || hides(name) {
                result += Self.mask
            } else {
                result += rest[afterEquals..<valueEnd]
            }
            rest = rest[valueEnd...]
        }
        return result + rest
    }

    private static let separators: Set<Character> = ["&", "?", " ", ",", ";", "\"", "'", "<", ">", "(", ")", "{", "}", "\n", "#"]

    /// `application/x-www-form-urlencoded` text with hidden values masked.
    public func formText(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let rawName = String(pair[..<equals])
            let name = rawName.removingPercentEncoding ?? rawName
            return hides(Self.baseName(name)) || hides(name) ? rawName + "=" + Self.mask : String(pair)
        }.joined(separator: "&")
    }

    /// A body as text, as it was sent: JSON with the whole value of every hidden key masked in
    /// place (at any depth; key order and spacing kept), form text masked, other UTF-8 as is,
    /// binary as a byte count.
    public func body(_ data: Data, contentType: String?) -> String {
        let masker = JSONKeyMasker(hides: hides, replacement: Array("\"\(Self.mask)\"".utf8))
        if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
           object is [String: Any] || object is [Any] {
            if let masked = masker.masked(Array(data)) {
                return String(decoding: masked, as: UTF8.self)
            }
            // JSON the scanner cannot follow (UTF-16 or UTF-32 text): masked, then written again.
            if let text = (try? JSONSerialization.data(withJSONObject: maskJSON(object), options: [.sortedKeys]))
                .flatMap({ String(data: $0, encoding: .utf8) }) {
                return text
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { return "<\(data.count) bytes>" }
        if contentType?.lowercased().contains("x-www-form-urlencoded") == true || looksLikeForm(text) {
            return formText(text)
        }
        return text
    }

    private func looksLikeForm(_ text: String) -> Bool {
        !text.isEmpty && !text.contains(" ") && !text.contains("\n") && text.contains("=")
    }

    private func maskJSON(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, nested) in object {
                result[key] = hides(key) ? Self.mask : maskJSON(nested)
            }
            return result
        }
        if let array = value as? [Any] {
            return array.map(maskJSON)
        }
        return value
    }

    private static func baseName(_ name: String) -> String {
        guard let bracket = name.firstIndex(of: "[") else { return name }
        return String(name[..<bracket])
    }
}
