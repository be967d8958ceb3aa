import Foundation
import ImageDecoding
import Networking
import Reactive

/// Loads photos' thumbnails: the item's `media.m` through an image provider, at most
/// `maximumConcurrentLoads` requests at once (the rest wait in order), decoded off the caller's
/// thread to at most `maxPixelSize` on the longer side, and kept in a memory cache of at most
/// `memoryLimit` bytes of pixels (least recently used dropped first). With a `responseCache`,
/// the files are also kept there (on disk when it has a directory) and read back without a request.
///
/// Give it a provider made with `trackInflights: true`, so identical URLs share one transport
/// request; disposing a thumbnail's subscription cancels its request (or its place in the queue).
///
/// ```swift
/// let loader = ThumbnailLoader(provider: NetworkProvider<PhotoImage>(trackInflights: true),
///                              maximumConcurrentLoads: 6, memoryLimit: 16 << 20)
/// let row = loader.thumbnail(for: item, maxPixelSize: 48).subscribe(onSuccess: { image in ... })
/// row.dispose()   // the row scrolled away: the request is cancelled
/// ```
public final class ThumbnailLoader: Sendable {
    /// The provider every picture is requested through.
    public let provider: NetworkProvider<PhotoImage>
    /// The most requests running at once.
    public let maximumConcurrentLoads: Int
    /// The most bytes of decoded pixels kept in memory.
    public let memoryLimit: Int
    /// Where picture files are also kept, if anywhere.
    public let responseCache: ResponseCache?

    private let decodeScheduler: any SchedulerType
    private let decoder: JPEGDecoder
    private let gate: LoadGate
    private let memory: ThumbnailMemoryCache

    /// The thumbnail path's one limit on concurrency: requests running at once unless the
    /// loader is made with another `maximumConcurrentLoads`. The transports allow at least as
    /// many connections per host (`SocketTransport` 8, URLSession 6), so they never bind first.
    public static let defaultMaximumConcurrentLoads = 6

    /// The default decoder's `maximumPixelCount`: 4 megapixels. The feed's `media.m` pictures are
    /// 240 pixels wide, so a larger one is refused before its pixels are allocated; pass a
    /// decoder with a higher limit to load bigger sizes.
    public static let defaultMaximumPixelCount = 4_000_000

    /// A loader of `provider`'s pictures. Decoding runs on `decodeScheduler` (a background queue
    /// by default; a `TestScheduler` in virtual-time tests) with `decoder`.
    public init(
        provider: NetworkProvider<PhotoImage>,
        maximumConcurrentLoads: Int = ThumbnailLoader.defaultMaximumConcurrentLoads,
        memoryLimit: Int = 32 * 1_048_576,
        responseCache: ResponseCache? = nil,
        decodeScheduler: any SchedulerType = ConcurrentDispatchQueueScheduler(qos: .userInitiated),
        decoder: JPEGDecoder = JPEGDecoder(maximumPixelCount: ThumbnailLoader.defaultMaximumPixelCount)
    ) {
        self.provider = provider
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
        self.memoryLimit = max(0, memoryLimit)
        self.responseCache = responseCache
        self.decodeScheduler = decodeScheduler
        self.decoder = decoder
        self.gate = LoadGate(limit: maximumConcurrentLoads)
        self.memory = ThumbnailMemoryCache(limit: memoryLimit)
    }

    /// Bytes of decoded pixels in the memory cache now.
    public var memoryCacheBytes: Int { memory.bytes }

    /// Loads waiting for a free slot now.
    public var waitingLoads: Int { gate.waitingCount }

    /// The thumbnail of `item`, its longer side at most `maxPixelSize`: from the memory cache at
    /// once when there, else requested (or read from `responseCache`) and decoded. Fails with
    /// `ThumbnailError` for a bad URL or size, the provider's error for a failed request, and
    /// `ImageDecodingError` for bytes that are not a whole JPEG.
    public func thumbnail(for item: Photo.Item, maxPixelSize: Int) -> Single<RGBImage> {
        guard maxPixelSize > 0 else { return .error(ThumbnailError.invalidSize(maxPixelSize)) }
        guard let url = URL(string: item.media.m), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else {
            return .error(ThumbnailError.invalidURL(item.media.m))
        }
        let target = PhotoImage(url: url)
        let key = "\(maxPixelSize) \(url.absoluteString)"
        return Single.deferred { [self] in
            if let image = memory.image(forKey: key) { return .just(image) }
            let decoder = self.decoder
            return file(of: target)
                .observe(on: decodeScheduler)
                .map { data in try decoder.decode(data, maxPixelSize: maxPixelSize) }
                .do(onSuccess: { [memory] image in memory.insert(image, forKey: key) })
        }
    }

    /// The picture file: from the response cache when it holds it, else requested within the
    /// gate (and stored in the cache).
    private func file(of target: PhotoImage) -> Single<Data> {
        if let cache = responseCache, let key = target.cacheKey, let cached = cache.response(forKey: key) {
            return .just(cached.data)
        }
        let cache = responseCache
        let request = provider.rx.request(target).do(onSuccess: { response in
            if let cache, let key = target.cacheKey { cache.store(response, forKey: key) }
        })
        return gate.limited(request, key: target.url.absoluteString).map(\.data)
    }
}
