import ImageDecoding

/// What a photo's thumbnail box shows.
package enum ThumbnailCell: Equatable, Sendable {
    /// The picture is on its way.
    case loading
    /// The decoded picture.
    case loaded(RGBImage)
    /// The picture failed; the reason in one word (`timeout`, `corrupt`, `404` ...).
    case failed(String)
}
