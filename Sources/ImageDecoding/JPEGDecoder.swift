import Foundation

/// Decodes JPEG files to `RGBImage`: baseline and progressive Huffman, 8-bit, greyscale, YCbCr,
/// RGB and Adobe CMYK/YCCK, any integral sampling factors, restart intervals, EXIF orientation.
///
/// Pixels match libjpeg's default decode (integer IDCT, "fancy" upsampling) within a few levels.
/// Hostile input never traps: every failure is an `ImageDecodingError` with a byte offset.
///
/// ```swift
/// let decoder = JPEGDecoder(allowPartial: true)
/// let thumbnail = try decoder.decode(data, maxPixelSize: 240)
/// ```
public struct JPEGDecoder: Sendable {
    /// The default `maximumPixelCount`: 64 megapixels.
    public static let defaultMaximumPixelCount = 64_000_000

    /// When the data ends early or the entropy-coded data is corrupt, return what was decoded
    /// so far (the rest of the picture mid-grey, as libjpeg leaves it) instead of throwing.
    /// Errors in the headers before the first scan still throw.
    public var allowPartial: Bool
    /// Images whose `width * height` is larger are refused before any pixel memory is allocated.
    public var maximumPixelCount: Int
    /// Turn the picture as its EXIF `Orientation` says (the default). When `false` the pixels are
    /// returned as stored; read the orientation with `JPEGDecoder.orientation(of:)`.
    public var appliesOrientation: Bool

    /// A decoder with the given options.
    public init(allowPartial: Bool = false, maximumPixelCount: Int = JPEGDecoder.defaultMaximumPixelCount,
                appliesOrientation: Bool = true) {
        self.allowPartial = allowPartial
        self.maximumPixelCount = maximumPixelCount
        self.appliesOrientation = appliesOrientation
    }

    /// Decodes the whole picture at full size.
    public func decode(_ data: Data) throws -> RGBImage {
        try decode(data, maxPixelSize: nil)
    }

    /// Decodes a picture whose longer side is at most `maxPixelSize` (smaller pictures come back
    /// at their own size). Scales by 1/2, 1/4 or 1/8 inside the IDCT where that still leaves at
    /// least `maxPixelSize`, then area-averages down so the longer side is `maxPixelSize`, so
    /// thumbnails are cheap. When an IDCT scale lands on `maxPixelSize` exactly, that decode is
    /// returned as it is, its shorter side rounded up as libjpeg does (640x427 at 80: 80x54).
    public func decode(_ data: Data, maxPixelSize: Int) throws -> RGBImage {
        guard maxPixelSize > 0 else { throw ImageDecodingError(.invalidMaxPixelSize(maxPixelSize), offset: 0) }
        return try decode(data, maxPixelSize: Optional(maxPixelSize))
    }

    /// The EXIF orientation stored in `data`, `.up` when there is none or it cannot be read.
    public static func orientation(of data: Data) -> ImageOrientation {
        data.withUnsafeBytes { raw in
            ExifOrientationReader.orientation(in: raw.bindMemory(to: UInt8.self))
        }
    }

    private func decode(_ data: Data, maxPixelSize: Int?) throws -> RGBImage {
        let decoded = try data.withUnsafeBytes { raw in
            var decoding = JPEGDecoding(bytes: raw.bindMemory(to: UInt8.self), options: self)
            return try decoding.run(maxPixelSize: maxPixelSize)
        }
        var image = decoded.image
        if let maxPixelSize, max(image.width, image.height) > maxPixelSize {
            let size = AreaResampler.fittedSize(width: decoded.width, height: decoded.height, within: maxPixelSize)
            image = AreaResampler.resize(image, width: size.width, height: size.height)
        }
        if appliesOrientation, decoded.orientation != .up {
            image = OrientationTransform.apply(decoded.orientation, to: image)
        }
        return image
    }
}
