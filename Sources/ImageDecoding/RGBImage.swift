/// A decoded picture: 8-bit RGB samples, row-major, three bytes per pixel, no padding.
///
/// ```swift
/// let image = try JPEGDecoder().decode(data)
/// let (r, g, b) = image[x: 0, y: 0]
/// ```
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes: red, green, blue for each pixel, row after row from the top.
    public let pixels: [UInt8]

    /// Wraps `pixels`; their count must be `width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3,
                     "RGBImage needs width * height * 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The red, green and blue samples of the pixel at column `x`, row `y` (both from 0).
    public subscript(x x: Int, y y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
