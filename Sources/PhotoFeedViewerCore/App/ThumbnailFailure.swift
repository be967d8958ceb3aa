import ImageDecoding
import Networking
import PhotoFeed

/// The one word a failed thumbnail's placeholder shows.
package enum ThumbnailFailure {
    /// `timeout`, `offline`, the HTTP status (`404`), `truncated`, `notjpeg`, `corrupt`, `badurl` or `failed`.
    package static func word(for error: any Error) -> String {
        if let decoding = error as? ImageDecodingError {
            switch decoding.reason {
            case .truncated: return "truncated"
            case .notJPEG: return "notjpeg"
            case .unsupported: return "unsupported"
            default: return "corrupt"
            }
        }
        if error is ThumbnailError { return "badurl" }
        if error.isTimeout { return "timeout" }
        if let status = (error as? ProviderError)?.response?.statusCode, !(200...299).contains(status) { return "\(status)" }
        if error.isNotConnection || error.isLostConnection { return "offline" }
        return "failed"
    }
}
