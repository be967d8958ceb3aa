import Foundation

extension URLEncodedFormEncoder {
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
}
