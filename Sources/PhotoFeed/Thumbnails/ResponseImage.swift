// Moya's `mapImage()` where the platform has no image type (Linux): the body decoded by
// `ImageDecoding` into an `RGBImage`. Where UIKit or AppKit is there, `Networking`'s `mapImage()`
// returns the platform's `Image` instead, and this one is left out so the name stays unambiguous.
// It lives here because `Networking` may not import `ImageDecoding` (DESIGN's layout).
#if !canImport(UIKit) && !canImport(AppKit)
import Foundation
import ImageDecoding
import Networking
import Reactive

extension Response {
    /// The body as a decoded picture (Moya's `mapImage()`; JPEG, what `ImageDecoding` reads);
    /// throws `ProviderError.imageMapping(self)` when it is not one.
    ///
    /// ```swift
    /// let picture = try response.mapImage()   // RGBImage: width, height, pixels
    /// ```
    public func mapImage() throws -> RGBImage {
        do {
            return try JPEGDecoder().decode(data)
        } catch {
            throw ProviderError.imageMapping(self)
        }
    }
}

extension Single where Element == Response {
    /// The body as a decoded picture; fails with `ProviderError.imageMapping`.
    public func mapImage() -> Single<RGBImage> {
        map { try $0.mapImage() }
    }
}

extension ObservableType where Element == Response {
    /// Each body as a decoded picture; fails with `ProviderError.imageMapping`.
    public func mapImage() -> Observable<RGBImage> {
        asObservable().map { try $0.mapImage() }
    }
}
#endif
