import Foundation

extension URLEncodedFormEncoder {
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
}
