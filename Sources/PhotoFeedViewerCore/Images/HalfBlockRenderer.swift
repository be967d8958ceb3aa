import ImageDecoding

/// Thumbnails as `▀` half blocks: each cell shows two pixels, the upper in the foreground colour
/// and the lower in the background colour, in 24-bit colour or in xterm's 256 (``PaletteQuantizer``).
package enum HalfBlockRenderer {
    /// `rows` lines of exactly `columns` cells each, every line ending with a colour reset.
    package static func lines(for image: RGBImage, columns: Int, rows: Int, depth: ThumbnailProtocol.ColorDepth) -> [String] {
        guard columns > 0, rows > 0 else { return [] }
        let scaled = CenterCrop.filled(image, width: columns, height: rows * 2)
        let code: (_ pixel: Int, _ layer: Int) -> String
        switch depth {
        case .truecolor:
            code = { pixel, layer in
                "\(layer);2;\(scaled.pixels[pixel * 3]);\(scaled.pixels[pixel * 3 + 1]);\(scaled.pixels[pixel * 3 + 2])"
            }
        case .palette256:
            let indices = paletteDrawings.value(for: scaled, compute: PaletteQuantizer.indices(for:))
            code = { pixel, layer in "\(layer);5;\(indices[pixel])" }
        }
        return (0..<rows).map { row in
            var line = ""
            var previous: (String, String)?
            for column in 0..<columns {
                let top = row * 2 * columns + column
                let colours = (code(top, 38), code(top + columns, 48))
                if previous.map({ $0 != colours }) ?? true {
                    line += "\u{1B}[\(colours.0);\(colours.1)m"
                    previous = colours
                }
                line += "▀"
            }
            return line + "\u{1B}[0m"
        }
    }

    /// The palette pictures of the thumbnails and the preview on screen, redrawn on every frame.
    private static let paletteDrawings = RecentResults<RGBImage, [UInt8]>(capacity: 64)
}
