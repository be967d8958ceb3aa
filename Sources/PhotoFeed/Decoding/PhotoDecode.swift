import Foundation

extension Photo {
    /// Repairs `feed` with ``FeedSanitizer`` and decodes it; throws a ``PhotoFeedError``, never crashes.
    public static func decode(feed: Data) throws(PhotoFeedError) -> Photo {
        let json: Data
        do {
            json = try FeedSanitizer.sanitize(feed)
        } catch {
            throw .sanitizing(error)
        }
        do {
            return try JSONDecoder().decode(Photo.self, from: json)
        } catch {
            throw PhotoFeedError(decodingFailure: error)
        }
    }
}
