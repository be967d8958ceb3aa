import Foundation

extension URLEncodedFormEncoder {
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
}
