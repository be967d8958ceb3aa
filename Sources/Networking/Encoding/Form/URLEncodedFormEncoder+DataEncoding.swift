import Foundation

extension URLEncodedFormEncoder {
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
}
