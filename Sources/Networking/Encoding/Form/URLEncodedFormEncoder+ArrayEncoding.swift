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
}
