import Foundation

extension URLEncodedFormEncoder {
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
