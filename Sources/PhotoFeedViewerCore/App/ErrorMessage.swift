import Foundation
import Networking
import PhotoFeed

/// The sentence `photo-feed` shows for a failed load: `APIError`'s message (no connection,
/// timed out, HTTP status with the server's message), what was unreachable, or why the answer
/// is not a feed.
package enum ErrorMessage {
    /// The message for `error` from a load of the feed at `host` (e.g. `127.0.0.1:8080`).
    package static func text(for error: any Error, host: String?) -> String {
        switch error {
        case let apiError as APIError:
            let message = apiError.errorDescription ?? "The request failed."
            // The message may name the host already (a refused loopback or private address).
            guard apiError.isNoNetwork, let host, !message.contains(host) else { return message }
            let sentence = message.hasSuffix(".") ? String(message.dropLast()) : message
            let context = apiError.underlyingError?.isLostConnection == true ? "while talking to" : "could not reach"
            return "\(sentence) (\(context) \(host))."
        case let feedError as PhotoFeedError:
            return "The answer is not a photo feed. \(feedError.errorDescription ?? String(describing: feedError))"
        case let providerError as ProviderError:
            return "The request failed: \(describe(providerError.underlyingError ?? providerError))"
        default:
            return "The request failed: \(describe(error))"
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let localized = (error as? any LocalizedError)?.errorDescription { return localized }
        return error.localizedDescription
    }
}
