import ImageDecoding
import Locking

/// Decoded thumbnails by key, at most `limit` bytes of pixels in all; the least recently used
/// go first. A picture larger than the whole limit is not kept.
final class ThumbnailMemoryCache: Sendable {
    private struct Entries {
        var images: [String: RGBImage] = [:]
        /// Keys, least recently used first.
        var order: [String] = []
        var bytes = 0
    }

    /// The most bytes of pixels held.
    let limit: Int
    private let entries = Lock(Entries())

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Bytes of pixels held now.
    var bytes: Int { entries.withLock { $0.bytes } }

    /// Keys held, least recently used first.
    var keys: [String] { entries.withLock { $0.order } }

    /// The image for `key`, marking it as just used.
    func image(forKey key: String) -> RGBImage? {
        entries.withLock { entries in
            guard let image = entries.images[key] else { return nil }
            if let index = entries.order.firstIndex(of: key) { entries.order.remove(at: index) }
            entries.order.append(key)
            return image
        }
    }

    /// Keeps `image` for `key`, dropping the least recently used until it fits.
    func insert(_ image: RGBImage, forKey key: String) {
        let size = image.pixels.count
        guard size <= limit else { return }
        entries.withLock { entries in
            if let old = entries.images.removeValue(forKey: key) {
                entries.bytes -= old.pixels.count
                if let index = entries.order.firstIndex(of: key) { entries.order.remove(at: index) }
            }
            while entries.bytes + size > limit, !entries.order.isEmpty {
                let evicted = entries.order.removeFirst()
                entries.bytes -= entries.images.removeValue(forKey: evicted)?.pixels.count ?? 0
            }
            entries.images[key] = image
            entries.order.append(key)
            entries.bytes += size
        }
    }
}
