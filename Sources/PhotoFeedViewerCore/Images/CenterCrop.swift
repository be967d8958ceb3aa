import ImageDecoding

/// Fits pictures to a box by cutting: the middle of the picture cropped to the box's shape,
/// then scaled to the box by ImageDecoding's `AreaResampler`.
package enum CenterCrop {
    /// `image` cropped to `width`:`height` and scaled to exactly `width` x `height` (each at
    /// least 1); an empty image gives black.
    package static func filled(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        let width = max(1, width), height = max(1, height)
        guard image.width > 0, image.height > 0, image.pixels.count >= image.width * image.height * 3 else {
            return RGBImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 3))
        }
        var cropWidth = image.width, cropHeight = image.height
        if cropWidth * height > width * cropHeight {
            cropWidth = max(1, (cropHeight * width + height / 2) / height)
        } else {
            cropHeight = max(1, (cropWidth * height + width / 2) / width)
        }
        let left = (image.width - cropWidth) / 2, top = (image.height - cropHeight) / 2
        var cropped = image
        if cropWidth != image.width || cropHeight != image.height {
            var pixels = [UInt8]()
            pixels.reserveCapacity(cropWidth * cropHeight * 3)
            for y in top..<(top + cropHeight) {
                let start = (y * image.width + left) * 3
                pixels += image.pixels[start..<(start + cropWidth * 3)]
            }
            cropped = RGBImage(width: cropWidth, height: cropHeight, pixels: pixels)
        }
        return AreaResampler.resize(cropped, width: width, height: height)
    }
}
