import ImageDecoding

/// Resizes pictures for a thumbnail box: the middle of the picture cropped to the box's shape,
/// then each output pixel the average of the input pixels it covers.
package enum ImageResampler {
    /// `image` cropped to `width`:`height` and scaled to exactly `width` x `height` (each at least 1).
    package static func filled(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        let width = max(1, width), height = max(1, height)
        guard image.width > 0, image.height > 0 else {
            return RGBImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 3))
        }
        var cropWidth = Double(image.width), cropHeight = Double(image.height)
        if cropWidth / cropHeight > Double(width) / Double(height) {
            cropWidth = cropHeight * Double(width) / Double(height)
        } else {
            cropHeight = cropWidth * Double(height) / Double(width)
        }
        let left = (Double(image.width) - cropWidth) / 2, top = (Double(image.height) - cropHeight) / 2
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let y0 = Int(top + cropHeight * Double(y) / Double(height))
            let y1 = max(y0 + 1, Int(top + cropHeight * Double(y + 1) / Double(height)))
            for x in 0..<width {
                let x0 = Int(left + cropWidth * Double(x) / Double(width))
                let x1 = max(x0 + 1, Int(left + cropWidth * Double(x + 1) / Double(width)))
                var sums = (0, 0, 0)
                var count = 0
                for sy in y0..<min(y1, image.height) {
                    for sx in x0..<min(x1, image.width) {
                        let offset = (sy * image.width + sx) * 3
                        sums.0 += Int(image.pixels[offset])
                        sums.1 += Int(image.pixels[offset + 1])
                        sums.2 += Int(image.pixels[offset + 2])
                        count += 1
                    }
                }
                let out = (y * width + x) * 3
                let divisor = max(1, count)
                pixels[out] = UInt8((sums.0 + divisor / 2) / divisor)
                pixels[out + 1] = UInt8((sums.1 + divisor / 2) / divisor)
                pixels[out + 2] = UInt8((sums.2 + divisor / 2) / divisor)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
