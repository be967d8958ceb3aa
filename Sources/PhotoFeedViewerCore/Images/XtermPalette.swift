/// The part of xterm's 256-colour palette that every terminal draws alike: the 6 x 6 x 6 colour
/// cube (16...231) and the grey ramp (232...255). The 16 system colours below them follow the
/// terminal's theme, so pictures do not use them.
package enum XtermPalette {
    /// The cube's six levels of each of red, green and blue.
    package static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The sRGB colour of palette entry `index` (16...255).
    package static func colour(_ index: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        if index >= 232 {
            let grey = UInt8(8 + 10 * (index - 232))
            return (grey, grey, grey)
        }
        let cube = index - 16
        return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
    }

    /// The entry nearest to `colour` in CIELAB: the nearest of the cube's colours and the grey
    /// ramp's, so a grey is chosen only when it is nearer than every cube colour.
    package static func nearest(to colour: CIELab, linearRed red: Double, green: Double, blue: Double) -> Int {
        var best = 16
        var bestDistance = Double.infinity
        forEachCandidate(near: colour, linearRed: red, green: green, blue: blue) { index in
            let distance = lab[index].squaredDistance(to: colour)
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
        }
        return best
    }

    /// Calls `body` with every entry that can be among the nearest few to `colour`: the cube's
    /// colours within two levels of the nearest level of each channel (CIELAB bends far enough,
    /// in dark blues, that the nearest colour can be two levels from each channel's nearest),
    /// and the three greys around the one of nearest lightness (every grey has a = b = 0, so
    /// lightness alone orders them).
    @inline(__always)
    package static func forEachCandidate(near colour: CIELab, linearRed red: Double, green: Double, blue: Double,
                                         _ body: (Int) -> Void) {
        let reds = neighbourhood(red), greens = neighbourhood(green), blues = neighbourhood(blue)
        for r in reds {
            for g in greens {
                for b in blues {
                    body(16 + 36 * r + 6 * g + b)
                }
            }
        }
        var grey = 232
        while grey < 255, abs(lab[grey + 1].l - colour.l) < abs(lab[grey].l - colour.l) {
            grey += 1
        }
        for index in max(232, grey - 1)...min(255, grey + 1) {
            body(index)
        }
    }

    /// Each entry's colour in CIELAB (indices below 16 hold black and are never used).
    package static let lab: [CIELab] = (0...255).map { index in
        guard index >= 16 else { return CIELab(l: 0, a: 0, b: 0) }
        let colour = colour(index)
        return CIELab(red: colour.red, green: colour.green, blue: colour.blue)
    }

    /// Each entry's colour in linear light (indices below 16 hold black).
    package static let linear: [LinearRGB] = (0...255).map { index in
        guard index >= 16 else { return LinearRGB() }
        let colour = colour(index)
        return LinearRGB(red: colour.red, green: colour.green, blue: colour.blue)
    }

    /// The cube levels in linear light.
    private static let linearLevels: [Double] = cubeLevels.map { CIELab.linear[Int($0)] }

    /// The level nearest to `value` (linear light) and the two levels on either side of it.
    private static func neighbourhood(_ value: Double) -> ClosedRange<Int> {
        var nearest = 0
        for level in 1..<linearLevels.count where abs(linearLevels[level] - value) < abs(linearLevels[nearest] - value) {
            nearest = level
        }
        return max(0, nearest - 2)...min(linearLevels.count - 1, nearest + 2)
    }
}
