/// Shrinks an image by area averaging (each output pixel is the weighted mean of the input
/// pixels it covers), the resampling after a scaled IDCT.
public enum AreaResampler {
    /// The size of a `width` x `height` picture shrunk so its longer side is `maxPixelSize`,
    /// keeping the aspect ratio (the shorter side rounded, at least 1).
    static func fittedSize(width: Int, height: Int, within maxPixelSize: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard longer > maxPixelSize, maxPixelSize > 0 else { return (width, height) }
        return (width >= height ? maxPixelSize : max(1, (width * maxPixelSize + longer / 2) / longer),
                height > width ? maxPixelSize : max(1, (height * maxPixelSize + longer / 2) / longer))
    }

    /// One output position's inputs: first index, and weights (summing to 1 << 14) of the inputs
    /// from there on.
    private struct Span {
        let first: Int
        let weights: [Int32]
    }

    private static let one: Int32 = 1 << 14

    /// The spans of `output` positions covering `input` positions evenly.
    private static func spans(input: Int, output: Int) -> [Span] {
        (0..<output).map { position in
            // Exact edges in units of 1 / output of an input pixel.
            let start = position * input, end = (position + 1) * input
            let first = start / output, last = (end - 1) / output
            var weights: [Int32] = []
            var given: Int32 = 0
            for index in first...last {
                let covered = min(end, (index + 1) * output) - max(start, index * output)
                var weight = Int32(covered * Int(one) / input)
                if index == last { weight = one - given }
                weights.append(weight)
                given += weight
            }
            return Span(first: first, weights: weights)
        }
    }

    /// `image` scaled to exactly `width` x `height` (each at least 1; `image` not empty), each
    /// output pixel the area-weighted mean of the input pixels it covers (shrinking or growing).
    public static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        let columns = spans(input: image.width, output: width)
        let rows = spans(input: image.height, output: height)
        // Horizontal pass into 14-bit fixed point, then vertical pass to bytes (wrapping
        // arithmetic: the largest sum, 255 << 28, is far from the limits).
        var horizontal = [Int32](repeating: 0, count: width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                for y in 0..<image.height {
                    let row = y * image.width * 3, out = y * width * 3
                    for (x, span) in columns.enumerated() {
                        var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0
                        for (offset, weight) in span.weights.enumerated() {
                            let at = row &+ (span.first &+ offset) &* 3
                            r &+= Int32(source[at]) &* weight
                            g &+= Int32(source[at &+ 1]) &* weight
                            b &+= Int32(source[at &+ 2]) &* weight
                        }
                        target[out &+ x &* 3] = r
                        target[out &+ x &* 3 &+ 1] = g
                        target[out &+ x &* 3 &+ 2] = b
                    }
                }
            }
        }
        // Each output row sums whole input rows, weight by weight, so the loops over a row
        // vectorize.
        let rowLength = width * 3
        var pixels = [UInt8](repeating: 0, count: rowLength * height)
        var sums = [Int64](repeating: 0, count: rowLength)
        horizontal.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                sums.withUnsafeMutableBufferPointer { sums in
                    for (y, span) in rows.enumerated() {
                        sums.update(repeating: Int64(1) << 27)
                        for (offset, weight) in span.weights.enumerated() {
                            let input = source.baseAddress.unsafelyUnwrapped + (span.first + offset) * rowLength
                            for x in 0..<rowLength { sums[x] &+= Int64(input[x]) &* Int64(weight) }
                        }
                        let out = target.baseAddress.unsafelyUnwrapped + y * rowLength
                        for x in 0..<rowLength { out[x] = UInt8(clamping: sums[x] &>> 28) }
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
