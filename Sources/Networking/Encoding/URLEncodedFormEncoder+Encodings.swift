import Foundation

extension URLEncodedFormEncoder {
    /// How an array's key is written for each element.
    public enum ArrayEncoding: Sendable {
        /// `key[]=a&key[]=b` (the default).
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`.
        case indexInBrackets
        /// The key the closure returns for the element at `index` of the array under `key`.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        /// The key written for the element at `index` of the array under `key`.
        public func encode(_ key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: return "\(key)[]"
            case .noBrackets: return key
            case .indexInBrackets: return "\(key)[\(index)]"
            case .custom(let encode): return encode(key, index)
            }
        }
    }

    /// How a `Bool` is written.
    public enum BoolEncoding: Sendable, Equatable {
        /// `1` and `0` (the default).
        case numeric
        /// `true` and `false`.
        case literal

        /// The text written for `value`.
        public func encode(_ value: Bool) -> String {
            switch self {
            case .numeric: return value ? "1" : "0"
            case .literal: return value ? "true" : "false"
            }
        }
    }

    /// How `Data` is written.
    public enum DataEncoding: Sendable {
        /// As `Data` encodes itself (an array of bytes: `d[]=1&d[]=2`).
        case deferredToData
        /// Base64 text (the default).
        case base64
        /// The text the closure returns; what it throws ends the encoding.
        case custom(@Sendable (Data) throws -> String)

        /// The text for `data`, or `nil` to let `Data` encode itself.
        func encode(_ data: Data) throws -> String? {
            switch self {
            case .deferredToData: return nil
            case .base64: return data.base64EncodedString()
            case .custom(let encode): return try encode(data)
            }
        }
    }

    /// How a `Date` is written.
    public enum DateEncoding: Sendable {
        /// As `Date` encodes itself: seconds since 1 January 2001 (the default).
        case deferredToDate
        /// Seconds since 1 January 1970 (`978307323.456`).
        case secondsSince1970
        /// Milliseconds since 1 January 1970 (`978307323456.0`).
        case millisecondsSince1970
        /// ISO 8601 in UTC (`2001-01-01T00:02:03Z`).
        case iso8601
        /// The formatter's text; the formatter is only read.
        case formatted(DateFormatter)
        /// The text the closure returns; what it throws ends the encoding.
        case custom(@Sendable (Date) throws -> String)

        /// The text for `date`, or `nil` to let `Date` encode itself.
        func encode(_ date: Date) throws -> String? {
            switch self {
            case .deferredToDate: return nil
            case .secondsSince1970: return String(date.timeIntervalSince1970)
            case .millisecondsSince1970: return String(date.timeIntervalSince1970 * 1000)
            case .iso8601: return ISO8601DateFormatter.string(from: date, timeZone: TimeZone(secondsFromGMT: 0) ?? .current,
                                                               formatOptions: .withInternetDateTime)
            case .formatted(let formatter): return formatter.string(from: date)
            case .custom(let encode): return try encode(date)
            }
        }
    }

    /// How each key is rewritten before it is written.
    public enum KeyEncoding: Sendable {
        /// As the value names it (the default).
        case useDefaultKeys
        /// `oneTwoThree` as `one_two_three` (`myURLKey` as `my_url_key`).
        case convertToSnakeCase
        /// `oneTwoThree` as `one-two-three`.
        case convertToKebabCase
        /// `oneTwoThree` as `OneTwoThree`.
        case capitalized
        /// `oneTwoThree` as `ONETWOTHREE`.
        case uppercased
        /// `oneTwoThree` as `onetwothree`.
        case lowercased
        /// The key the closure returns.
        case custom(@Sendable (String) -> String)

        /// `key` rewritten.
        public func encode(_ key: String) -> String {
            switch self {
            case .useDefaultKeys: return key
            case .convertToSnakeCase: return Self.words(of: key).joined(separator: "_")
            case .convertToKebabCase: return Self.words(of: key).joined(separator: "-")
            case .capitalized: return key.prefix(1).uppercased() + key.dropFirst()
            case .uppercased: return key.uppercased()
            case .lowercased: return key.lowercased()
            case .custom(let encode): return encode(key)
            }
        }

        /// The lowercased words of a camel-case key: a word starts at an upper-case letter after
        /// a lower-case one, and a run of capitals is one word (`myURLKey`: my, url, key).
        private static func words(of key: String) -> [String] {
            let characters = Array(key)
            var words: [String] = []
            var current = ""
            for (index, character) in characters.enumerated() {
                if character.isUppercase, !current.isEmpty {
                    let previous = characters[index - 1]
                    let next = index + 1 < characters.count ? characters[index + 1] : nil
                    if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                        words.append(current)
                        current = ""
                    }
                }
                current.append(character)
            }
            if !current.isEmpty { words.append(current) }
            return words.map { $0.lowercased() }
        }
    }

    /// How a nested key is joined to its parent's key.
    public struct KeyPathEncoding: Sendable {
        /// `parent[child][grandchild]` (the default).
        public static let brackets = KeyPathEncoding { "[\($0)]" }
        /// `parent.child.grandchild`.
        public static let dots = KeyPathEncoding { ".\($0)" }

        private let encoding: @Sendable (_ subkey: String) -> String

        /// An encoding that appends to the parent's key what `encoding` returns for each sub-key.
        public init(encoding: @escaping @Sendable (_ subkey: String) -> String) {
            self.encoding = encoding
        }

        /// What is appended to the parent's key for `subkey`.
        public func encodeKeyPath(_ subkey: String) -> String {
            encoding(subkey)
        }
    }

    /// How a `nil` value is written.
    public struct NilEncoding: Sendable {
        /// Leaves the key out (the default).
        public static let dropKey = NilEncoding { nil }
        /// Writes the key with an empty value (`key=`).
        public static let dropValue = NilEncoding { "" }
        /// Writes `null`.
        public static let null = NilEncoding { "null" }

        private let encoding: @Sendable () -> String?

        /// An encoding writing what `encoding` returns; `nil` leaves the key out.
        public init(encoding: @escaping @Sendable () -> String?) {
            self.encoding = encoding
        }

        /// The text for `nil`, or `nil` to leave the key out.
        public func encodeNil() -> String? {
            encoding()
        }
    }

    /// How a space is written.
    public enum SpaceEncoding: Sendable, Equatable {
        /// `%20` (the default).
        case percentEscaped
        /// `+`.
        case plusReplaced

        /// `text` (already percent-encoded, spaces left) with its spaces written.
        public func encode(_ text: String) -> String {
            switch self {
            case .percentEscaped: return text.replacingOccurrences(of: " ", with: "%20")
            case .plusReplaced: return text.replacingOccurrences(of: " ", with: "+")
            }
        }
    }
}
