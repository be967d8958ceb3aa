import Foundation

/// Masks the values of chosen keys inside JSON text where they stand, leaving every other byte
/// (key order, spacing, number spelling, escapes) as it was sent.
struct JSONKeyMasker {
    /// Whether a key's value is hidden.
    let hides: (String) -> Bool
    /// What a hidden value becomes (a JSON string).
    let replacement: [UInt8]

    private static let maximumDepth = 512

    /// `text` with every hidden key's whole value replaced, or nil when `text` is not one JSON
    /// object or array (the caller then logs it some other way).
    func masked(_ text: [UInt8]) -> [UInt8]? {
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var index = skipSpace(text, from: 0)
        guard index < text.count, text[index] == UInt8(ascii: "{") || text[index] == UInt8(ascii: "[") else { return nil }
        guard let end = value(text, at: index, depth: 0, edits: &edits),
              skipSpace(text, from: end) == text.count else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        index = 0
        for edit in edits {
            result += text[index..<edit.range.lowerBound]
            result += edit.bytes
            index = edit.range.upperBound
        }
        result += text[index...]
        return result
    }

    /// The index just past the value starting at `start`, recording edits for hidden keys inside.
    private func value(_ text: [UInt8], at start: Int, depth: Int, edits: inout [(range: Range<Int>, bytes: [UInt8])]) -> Int? {
        guard start < text.count, depth < Self.maximumDepth else { return nil }
        switch text[start] {
        case UInt8(ascii: "{"):
            return object(text, at: start, depth: depth, edits: &edits)
        case UInt8(ascii: "["):
            var index = skipSpace(text, from: start + 1)
            if index < text.count, text[index] == UInt8(ascii: "]") { return index + 1 }
            while true {
                guard let end = value(text, at: index, depth: depth + 1, edits: &edits) else { return nil }
                index = skipSpace(text, from: end)
                guard index < text.count else { return nil }
                if text[index] == UInt8(ascii: "]") { return index + 1 }
                guard text[index] == UInt8(ascii: ",") else { return nil }
                index = skipSpace(text, from: index + 1)
            }
        case UInt8(ascii: "\""):
            return stringEnd(text, at: start)
        default:
            var index = start
            while index < text.count, !Self.delimiters.contains(text[index]) { index += 1 }
            return index > start ? index : nil
        }
    }

    private func object(_ text: [UInt8], at start: Int, depth: Int, edits: inout [(range: Range<Int>, bytes: [UInt8])]) -> Int? {
        var index = skipSpace(text, from: start + 1)
        if index < text.count, text[index] == UInt8(ascii: "}") { return index + 1 }
        while true {
            guard index < text.count, text[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(text, at: index) else { return nil }
            let key = Self.decodedString(text[index..<keyEnd])
            index = skipSpace(text, from: keyEnd)
            guard index < text.count, text[index] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(text, from: index + 1)
            if let key, hides(key) {
                var ignored: [(range: Range<Int>, bytes: [UInt8])] = []
                guard let valueEnd = value(text, at: valueStart, depth: depth + 1, edits: &ignored) else { return nil }
                edits.append((valueStart..<valueEnd, replacement))
                index = valueEnd
            } else {
                guard let valueEnd = value(text, at: valueStart, depth: depth + 1, edits: &edits) else { return nil }
                index = valueEnd
            }
            index = skipSpace(text, from: index)
            guard index < text.count else { return nil }
            if text[index] == UInt8(ascii: "}") { return index + 1 }
            guard text[index] == UInt8(ascii: ",") else { return nil }
            index = skipSpace(text, from: index + 1)
        }
    }

    /// The index just past the closing quote of the string starting at `start`.
    private func stringEnd(_ text: [UInt8], at start: Int) -> Int? {
        var index = start + 1
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }

    private func skipSpace(_ text: [UInt8], from start: Int) -> Int {
        var index = start
        while index < text.count, Self.space.contains(text[index]) { index += 1 }
        return index
    }

    /// A JSON string literal (quotes included) as a Swift string, escapes resolved.
    private static func decodedString(_ literal: ArraySlice<UInt8>) -> String? {
        guard literal.contains(UInt8(ascii: "\\")) else {
            return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
        }
        return (try? JSONSerialization.jsonObject(with: Data(literal), options: [.fragmentsAllowed])) as? String
    }

    private static let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    private static let delimiters: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")]
}
