import PhotoFeedViewerCore

/// How far a picture drawn in xterm's 256 colours is from the same picture drawn in 24-bit
/// colour, in CIELAB ΔE*ab (CIE 1976): per pixel, against the floor no mapping can beat (each
/// pixel's nearest palette colour, found by trying all 240), and per area of 2 x 2 cells
/// (2 x 4 pixels) averaged in linear light, as the eye mixes neighbouring cells.
struct PaletteFidelity: CustomStringConvertible {
    /// The mean ΔE between each palette pixel and its truecolour pixel.
    let pixelError: Double
    /// The mean ΔE between each truecolour pixel and its nearest palette colour.
    let floor: Double
    /// The mean ΔE between the areas' mean colours.
    let areaError: Double
    /// How many pixels and areas the means are over.
    let pixelCount: Int
    let areaCount: Int

    init(truecolor: HalfBlockPixels, palette: HalfBlockPixels) {
        precondition(truecolor.width == palette.width && truecolor.height == palette.height)
        let entries = (16...255).map { index in
            let colour = XtermPalette.colour(index)
            return CIELab(red: colour.red, green: colour.green, blue: colour.blue)
        }
        var pixelSum = 0.0, floorSum = 0.0
        for (wanted, drawn) in zip(truecolor.pixels, palette.pixels) {
            let lab = CIELab(red: wanted.red, green: wanted.green, blue: wanted.blue)
            pixelSum += lab.squaredDistance(to: CIELab(red: drawn.red, green: drawn.green, blue: drawn.blue)).squareRoot()
            var nearest = Double.infinity
            for entry in entries {
                nearest = min(nearest, lab.squaredDistance(to: entry))
            }
            floorSum += nearest.squareRoot()
        }
        var areaSum = 0.0, areas = 0
        for top in stride(from: 0, to: truecolor.height, by: 4) {
            for left in stride(from: 0, to: truecolor.width, by: 2) {
                let points = (top..<min(top + 4, truecolor.height)).flatMap { y in (left..<min(left + 2, truecolor.width)).map { (x: $0, y: y) } }
                let wanted = Self.mean(points.map { truecolor[$0.x, $0.y] })
                let drawn = Self.mean(points.map { palette[$0.x, $0.y] })
                areaSum += wanted.squaredDistance(to: drawn).squareRoot()
                areas += 1
            }
        }
        let count = Double(max(1, truecolor.pixels.count))
        pixelError = pixelSum / count
        floor = floorSum / count
        areaError = areaSum / Double(max(1, areas))
        pixelCount = truecolor.pixels.count
        areaCount = areas
    }

    var description: String {
        func format(_ value: Double) -> String { String(Double((value * 100).rounded()) / 100) }
        return "ΔE per pixel \(format(pixelError)) (floor \(format(floor)), \(format(pixelError / max(floor, 1e-9)))x), "
            + "per 2x2-cell area \(format(areaError))"
    }

    /// The colour of `colours` averaged in linear light.
    private static func mean(_ colours: [(red: UInt8, green: UInt8, blue: UInt8)]) -> CIELab {
        let count = Double(colours.count)
        let red = colours.reduce(0) { $0 + CIELab.linear[Int($1.red)] } / count
        let green = colours.reduce(0) { $0 + CIELab.linear[Int($1.green)] } / count
        let blue = colours.reduce(0) { $0 + CIELab.linear[Int($1.blue)] } / count
        return CIELab(linearRed: red, green: green, blue: blue)
    }
}
