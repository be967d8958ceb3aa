import Foundation

/// Why a thumbnail could not be loaded before any request was made.
/// (Transport, status and timeout failures arrive as the provider reports them; undecodable
/// bytes as `ImageDecodingError`.)
public enum ThumbnailError: Error, Equatable, Sendable, LocalizedError {
    /// The photo's `media.m` is not an `http` or `https` URL.
    case invalidURL(String)
    /// `maxPixelSize` was not above zero.
    case invalidSize(Int)

    /// A sentence naming the problem.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let text): "The photo's image address is not an http(s) URL: \"\(text)\"."
        case .invalidSize(let size): "A thumbnail needs a size above 0, got \(size)."
        }
    }
}
