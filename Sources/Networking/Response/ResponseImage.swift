// `mapImage()` where the platform has an image type (UIKit or AppKit), as Moya has it. Without
// one (Linux), `PhotoFeed` offers `mapImage()` returning `ImageDecoding`'s `RGBImage`: Networking
// may not import ImageDecoding (DESIGN's layout), and PhotoFeed already does.
#if canImport(UIKit)
import UIKit

/// The platform's image type, as Moya names it: `UIImage`.
public typealias Image = UIImage
#elseif canImport(AppKit)
import AppKit

/// The platform's image type, as Moya names it: `NSImage`.
public typealias Image = NSImage
#endif

#if canImport(UIKit) || canImport(AppKit)
import Reactive

extension Response {
    /// The body as the platform's image (Moya's `mapImage()`); throws
    /// `ProviderError.imageMapping(self)` when it is not an image the platform reads.
    public func mapImage() throws -> Image {
        guard let image = Image(data: data) else { throw ProviderError.imageMapping(self) }
        return image
    }
}

extension Single where Element == Response {
    /// The body as the platform's image; fails with `ProviderError.imageMapping`.
    public func mapImage() -> Single<Image> {
        map { try $0.mapImage() }
    }
}

extension ObservableType where Element == Response {
    /// Each body as the platform's image; fails with `ProviderError.imageMapping`.
    public func mapImage() -> Observable<Image> {
        asObservable().map { try $0.mapImage() }
    }
}
#endif
