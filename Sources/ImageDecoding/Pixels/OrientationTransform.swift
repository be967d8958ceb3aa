/// Turns or mirrors an image so that it displays upright for its EXIF orientation.
enum OrientationTransform {
    static func apply(_ orientation: ImageOrientation, to image: RGBImage) -> RGBImage {
        let width = image.width, height = image.height
        let swaps = orientation.swapsDimensions
        let outWidth = swaps ? height : width, outHeight = swaps ? width : height
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // The stored pixel that lands at (x, y) on display.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (width - 1 - x, y)
                        case .down: (sx, sy) = (width - 1 - x, height - 1 - y)
                        case .downMirrored: (sx, sy) = (x, height - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, height - 1 - x)
                        case .rightMirrored: (sx, sy) = (width - 1 - y, height - 1 - x)
                        case .left: (sx, sy) = (width - 1 - y, x)
                        }
                        let from = (sy * width + sx) * 3, to = (y * outWidth + x) * 3
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                    }
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }
}
