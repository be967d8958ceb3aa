import ImageDecoding

/// Thumbnails as `▀` half blocks: each cell shows two pixels, the upper in the foreground colour
/// and the lower in the background colour, in 24-bit colour or the nearest of xterm's 256.
package enum HalfBlockRenderer {
    /// `rows` lines of exactly `columns` cells each, every line ending with a colour reset.
    package static func lines(for image: RGBImage, columns: Int, rows: Int, depth: ThumbnailProtocol.ColorDepth) -> [String] {
        guard columns > 0, rows > 0 else { return [] }
        let scaled = CenterCrop.filled(image, width: columns, height: rows * 2)
        return (0..<rows).map { row in
            var line = ""
            var previous: (String, String)?
            for column in 0..<columns {
                let top = scaled[x: column, y: row * 2]
                let bottom = scaled[x: column, y: row * 2 + 1]
                let colours = (code(top, depth: depth, layer: 38), code(bottom, depth: depth, layer: 48))
                if previous.map({ $0 != colours }) ?? true {
                    line += "\u{1B}[\(colours.0);\(colours.1)m"
                    previous = colours
                }
                line += "▀"
            }
            return line + "\u{1B}[0m"
        }
    }

    /// The SGR parameters of `colour` as foreground (`layer` 38) or background (48).
    static func code(_ colour: (red: UInt8, green: UInt8, blue: UInt8), depth: ThumbnailProtocol.ColorDepth, layer: Int) -> String {
        switch depth {
        case .truecolor: "\(layer);2;\(colour.red);\(colour.green);\(colour.blue)"
        case .palette256: "\(layer);5;\(paletteIndex(colour))"
        }
    }

    /// The nearest xterm-256 colour: a step of the 6x6x6 cube (16...231) or of the grey ramp (232...255).
    package static func paletteIndex(_ colour: (red: UInt8, green: UInt8, blue: UInt8)) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: UInt8) -> Int {
            levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) } ?? 0
        }
        let (r, g, b) = (nearestLevel(colour.red), nearestLevel(colour.green), nearestLevel(colour.blue))
        let cube = (levels[r], levels[g], levels[b])
        let average = (Int(colour.red) + Int(colour.green) + Int(colour.blue)) / 3
        let greyStep = max(0, min(23, (average - 8 + 5) / 10))
        let grey = 8 + greyStep * 10
        func distance(_ a: (Int, Int, Int)) -> Int {
            let dr = a.0 - Int(colour.red), dg = a.1 - Int(colour.green), db = a.2 - Int(colour.blue)
            return dr * dr + dg * dg + db * db
        }
        return distance((grey, grey, grey)) < distance(cube) ? 232 + greyStep : 16 + 36 * r + 6 * g + b
    }
}
