import Foundation

extension URLEncodedFormEncoder {
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
}
