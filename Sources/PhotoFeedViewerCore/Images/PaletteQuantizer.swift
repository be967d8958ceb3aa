import ImageDecoding

/// Maps a picture to xterm's 256 colours so that it keeps its hues and gradients.
///
/// Each pixel starts at its nearest palette colour in CIELAB (``XtermPalette``; a grey only
/// when it is nearer than every cube colour). Nearest colours alone turn a dark blue sky into a
/// flat grey and a gradient into bands, because the eye does not see single pixels: it sees the
/// mix, in linear light, of neighbouring cells. So the picture is then improved pass by pass,
/// pixel by pixel: a pixel takes another of its nearest few colours when that brings the areas
/// of 2 x 2 cells (2 x 4 pixels) it lies in, at every position, closer to the picture's own
/// areas by more than it moves the pixel away from its own colour. The result dithers where
/// the mix needs it and keeps the nearest colour where it does not, and it is the same for the
/// same picture every time.
package enum PaletteQuantizer {
    /// What an area's error counts against a pixel's, per unit of ΔE: chosen on the demo's
    /// pictures and two photographs (`PaletteColourTests`); more buys little for the areas at a
    /// high price for the pixels, less lets the areas drift.
    static let areaWeight = 0.35
    /// The colours a pixel may take: its nearest few cube colours and greys.
    static let choices = 6
    /// Of which cube colours (the rest greys).
    static let cubeChoices = 4
    /// Passes over the picture at most (a pass that changes nothing ends it).
    static let passes = 3

    /// The palette entry (16...255) of each pixel of `image`, row after row.
    package static func indices(for image: RGBImage) -> [UInt8] {
        let width = image.width, height = image.height, count = width * height
        guard count > 0, image.pixels.count >= count * 3 else { return [] }
        var pixels = [LinearRGB](repeating: LinearRGB(), count: count)
        var entries = [UInt8](repeating: 16, count: count * choices)
        var distances = [Double](repeating: .infinity, count: count * choices)
        for pixel in 0..<count {
            let colour = LinearRGB(red: image.pixels[pixel * 3], green: image.pixels[pixel * 3 + 1], blue: image.pixels[pixel * 3 + 2])
            pixels[pixel] = colour
            let lab = colour.lab
            let base = pixel * choices
            // The nearest few cube colours and the nearest greys, so that greys, which crowd
            // around dark and dull colours, leave a pixel some colours to mix with.
            var cube = (entries: [UInt8](repeating: 16, count: cubeChoices), distances: [Double](repeating: .infinity, count: cubeChoices))
            var greys = (entries: [UInt8](repeating: 232, count: choices - cubeChoices), distances: [Double](repeating: .infinity, count: choices - cubeChoices))
            XtermPalette.forEachCandidate(near: lab, linearRed: colour.red, green: colour.green, blue: colour.blue) { index in
                var distance = lab.squaredDistance(to: XtermPalette.lab[index])
                var entry = UInt8(index)
                if index >= 232 {
                    for slot in greys.entries.indices where distance < greys.distances[slot] {
                        swap(&distance, &greys.distances[slot])
                        swap(&entry, &greys.entries[slot])
                    }
                } else {
                    for slot in cube.entries.indices where distance < cube.distances[slot] {
                        swap(&distance, &cube.distances[slot])
                        swap(&entry, &cube.entries[slot])
                    }
                }
            }
            // Nearest first.
            let merged = zip(cube.entries + greys.entries, cube.distances + greys.distances).sorted { $0.1 < $1.1 }
            for (offset, candidate) in merged.enumerated() {
                entries[base + offset] = candidate.0
                distances[base + offset] = candidate.1
            }
            for slot in base..<(base + choices) {
                distances[slot] = distances[slot].squareRoot()
            }
        }
        var areas = Areas(width: width, height: height, pixels: pixels) { entries[$0 * choices] }
        // Every slot of a pixel holds an entry: the candidates always number more than `choices`.
        var chosen = [Int](repeating: 0, count: count)
        let pixelWeight = 1 / Double(count), areaWeight = Self.areaWeight / Double(areas.count)
        for _ in 0..<passes {
            var changed = false
            for pixel in 0..<count {
                let current = chosen[pixel]
                let from = XtermPalette.linear[Int(entries[pixel * choices + current])]
                let before = areas.error(around: pixel)
                var best = current, bestGain = 0.0
                for slot in 0..<choices where slot != current {
                    let pixelGain = pixelWeight * (distances[pixel * choices + current] - distances[pixel * choices + slot])
                    // Even areas made perfect could not pay for this colour: skip working them out.
                    guard pixelGain + areaWeight * before > bestGain else { continue }
                    let to = XtermPalette.linear[Int(entries[pixel * choices + slot])]
                    let gain = pixelGain + areaWeight * (before - areas.error(around: pixel, moving: to - from))
                    if gain > bestGain {
                        bestGain = gain
                        best = slot
                    }
                }
                if best != current {
                    areas.move(pixel, by: XtermPalette.linear[Int(entries[pixel * choices + best])] - from)
                    chosen[pixel] = best
                    changed = true
                }
            }
            if !changed { break }
        }
        return (0..<count).map { entries[$0 * choices + chosen[$0]] }
    }

    /// The areas of 2 x 4 pixels at every position, clipped at the picture's edges (so every
    /// pixel lies in eight): the picture's mean colour of each, in CIELAB, and the drawn one's,
    /// as a sum in linear light, with its ΔE.
    struct Areas {
        let width: Int
        let height: Int
        private let columns: Int
        private var wanted: [CIELab] = []
        private var drawn: [LinearRGB] = []
        private var scale: [Double] = []
        private var errors: [Double] = []

        /// Areas over `pixels`, each drawn at first in `entry(pixel)`.
        init(width: Int, height: Int, pixels: [LinearRGB], entry: (Int) -> UInt8) {
            self.width = width
            self.height = height
            columns = width + 1
            let count = columns * (height + 3)
            wanted.reserveCapacity(count)
            drawn.reserveCapacity(count)
            scale.reserveCapacity(count)
            for top in -3..<height {
                for left in -1..<width {
                    var picture = LinearRGB(), palette = LinearRGB()
                    for y in max(0, top)..<min(height, top + 4) {
                        for x in max(0, left)..<min(width, left + 2) {
                            picture = picture + pixels[y * width + x]
                            palette = palette + XtermPalette.linear[Int(entry(y * width + x))]
                        }
                    }
                    let size = Double((min(height, top + 4) - max(0, top)) * (min(width, left + 2) - max(0, left)))
                    wanted.append((picture * (1 / size)).lab)
                    drawn.append(palette)
                    scale.append(1 / size)
                }
            }
            errors = (0..<count).map { (drawn[$0] * scale[$0]).lab.squaredDistance(to: wanted[$0]).squareRoot() }
        }

        /// How many areas there are.
        var count: Int { wanted.count }

        /// The summed ΔE of the eight areas that hold `pixel`.
        func error(around pixel: Int) -> Double {
            var total = 0.0
            forEachArea(holding: pixel) { total += errors[$0] }
            return total
        }

        /// The summed ΔE of the eight areas that hold `pixel` were its colour to change by `change`.
        func error(around pixel: Int, moving change: LinearRGB) -> Double {
            var total = 0.0
            forEachArea(holding: pixel) { area in
                total += ((drawn[area] + change) * scale[area]).lab.squaredDistance(to: wanted[area]).squareRoot()
            }
            return total
        }

        /// Changes `pixel`'s drawn colour by `change`.
        mutating func move(_ pixel: Int, by change: LinearRGB) {
            var held: [Int] = []
            held.reserveCapacity(8)
            forEachArea(holding: pixel) { held.append($0) }
            for area in held {
                drawn[area] = drawn[area] + change
                errors[area] = (drawn[area] * scale[area]).lab.squaredDistance(to: wanted[area]).squareRoot()
            }
        }

        @inline(__always)
        private func forEachArea(holding pixel: Int, _ body: (Int) -> Void) {
            let x = pixel % width, y = pixel / width
            // The area whose top-left corner is (left, top) is number (top + 3) * columns + left + 1.
            for top in (y - 3)...y {
                for left in (x - 1)...x {
                    body((top + 3) * columns + left + 1)
                }
            }
        }
    }
}
