import ImageDecoding

/// Thumbnails as DEC sixels: the picture scaled to `columns` x `rows` cells of 8 x 16 pixels,
/// each pixel the nearest colour of a 6 x 6 x 6 palette, bands of six rows run-length coded.
package enum SixelRenderer {
    /// Pixels per cell assumed (terminals do not say; 8 x 16 is the common default).
    package static let pixelsPerCell = (width: 8, height: 16)

    /// The DCS sequence drawing `image` at the cursor.
    package static func sequence(for image: RGBImage, columns: Int, rows: Int) -> String {
        guard columns > 0, rows > 0 else { return "" }
        let width = columns * pixelsPerCell.width, height = rows * pixelsPerCell.height
        let scaled = CenterCrop.filled(image, width: width, height: height)
        var indices = [Int](repeating: 0, count: width * height)
        var used = Set<Int>()
        for index in indices.indices {
            let offset = index * 3
            let level = { (value: UInt8) in (Int(value) * 5 + 127) / 255 }
            let colour = level(scaled.pixels[offset]) * 36 + level(scaled.pixels[offset + 1]) * 6 + level(scaled.pixels[offset + 2])
            indices[index] = colour
            used.insert(colour)
        }
        var out = "\u{1B}P0;1;0q\"1;1;\(width);\(height)"
        for colour in used.sorted() {
            let percent = { (level: Int) in level * 20 }
            out += "#\(colour);2;\(percent(colour / 36));\(percent(colour / 6 % 6));\(percent(colour % 6))"
        }
        for bandTop in stride(from: 0, to: height, by: 6) {
            let bandRows = bandTop..<min(height, bandTop + 6)
            var coloursInBand = Set<Int>()
            for y in bandRows { for x in 0..<width { coloursInBand.insert(indices[y * width + x]) } }
            for (position, colour) in coloursInBand.sorted().enumerated() {
                if position > 0 { out += "$" }
                out += "#\(colour)"
                var run = (character: Character(" "), count: 0)
                for x in 0..<width {
                    var bits = 0
                    for y in bandRows where indices[y * width + x] == colour { bits |= 1 << (y - bandTop) }
                    let character = Character(Unicode.Scalar(UInt8(63 + bits)))
                    if character == run.character {
                        run.count += 1
                    } else {
                        out += encoded(run)
                        run = (character, 1)
                    }
                }
                out += encoded(run)
            }
            out += "-"
        }
        return out + "\u{1B}\\"
    }

    private static func encoded(_ run: (character: Character, count: Int)) -> String {
        switch run.count {
        case 0: ""
        case 1...3: String(repeating: run.character, count: run.count)
        default: "!\(run.count)\(run.character)"
        }
    }
}
