import ImageDecoding

/// Maps a picture to xterm's 256 colours so that it keeps its hues and gradients.
///
/// Each pixel starts at its nearest palette colour in CIELAB (``XtermPalette``; a grey only
/// when it is nearer than every cube colour). Nearest colours alone turn a dark blue sky into a
/// flat grey and a gradient into bands, because the eye does not see single pixels: it sees the
/// mix, in linear light, of neighbouring cells. So the picture is then improved pass by pass,
/// pixel by pixel: a pixel takes another of its nearest few colours when that brings the areas
/// of 2 x 2 cells (2 x 4 pixels) it lies in, at every position, closer to the picture's own
/// areas by more than it moves the pixel away from its own colour, at a given weight of the
/// areas against the pixels.
///
/// How much dithering pays differs from picture to picture, so the weight is chosen for each:
/// a few rounds, each continuing from the last drawing, raise the weight while the pixels stay
/// within ``pixelBudget`` of their nearest colours, and step back to a smaller rise (or start
/// again from the nearest colours at a lower weight) when a round spends more. The drawing kept
/// is the one within that budget whose areas are closest to the picture's; the nearest colours
/// when none is. The result dithers where the mix needs it and keeps the nearest colour where
/// it does not, and it is the same for the same picture every time.
package enum PaletteQuantizer {
    /// The weight of an area's error against a pixel's, per unit of ΔE, in the first round.
    static let firstAreaWeight = 0.35
    /// How far each round moves the weight, as a factor (halved, as a power, after a round that
    /// spent too much).
    static let weightStep = 1.6
    /// Rounds at most: each costs about as much as one drawing with a fixed weight.
    static let rounds = 5
    /// How far the pixels may stray from their nearest colours on average, as a multiple of the
    /// nearest colours' own mean ΔE from the picture.
    static let pixelBudget = 1.075
    /// The colours a pixel may take: its nearest few cube colours and greys.
    static let choices = 8
    /// Of which cube colours (the rest greys).
    static let cubeChoices = 5
    /// Passes over the picture in a round at most (a pass that changes nothing ends it).
    static let passes = 2

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
            // The nearest few cube colours (the first slots) and the nearest greys (the last), so
            // that greys, which crowd around dark and dull colours, leave a pixel colours to mix
            // with; then all of them nearest first.
            XtermPalette.forEachCandidate(near: lab, linearRed: colour.red, green: colour.green, blue: colour.blue) { index in
                var distance = lab.squaredDistance(to: XtermPalette.lab[index])
                var entry = UInt8(index)
                let slots = index >= 232 ? (base + cubeChoices)..<(base + choices) : base..<(base + cubeChoices)
                for slot in slots where distance < distances[slot] {
                    swap(&distance, &distances[slot])
                    swap(&entry, &entries[slot])
                }
            }
            for slot in (base + 1)..<(base + choices) {
                var earlier = slot
                while earlier > base, distances[earlier] < distances[earlier - 1] {
                    distances.swapAt(earlier, earlier - 1)
                    entries.swapAt(earlier, earlier - 1)
                    earlier -= 1
                }
            }
            for slot in base..<(base + choices) {
                distances[slot] = distances[slot].squareRoot()
            }
        }
        // A grey slot left empty (at the ends of the ramp) keeps an infinite distance: never taken.
        let nearest = { (pixel: Int) in entries[pixel * choices] }
        var areas = Areas(width: width, height: height, pixels: pixels, entry: nearest)
        var chosen = [Int](repeating: 0, count: count)
        let budget = pixelBudget * (0..<count).reduce(0.0) { $0 + distances[$1 * choices] }
        var kept: (chosen: [Int], areaError: Double, weight: Double)?
        var weight = firstAreaWeight, step = weightStep
        for _ in 0..<rounds {
            improve(&chosen, areas: &areas, weight: weight, entries: entries, distances: distances)
            let spent = (0..<count).reduce(0.0) { $0 + distances[$1 * choices + chosen[$1]] }
            if spent <= budget {
                if areas.meanError < kept?.areaError ?? .infinity {
                    kept = (chosen, areas.meanError, weight)
                }
                weight *= step
            } else if let best = kept, best.weight < weight {
                // Too far: back to the best drawing, and a smaller rise from its weight.
                chosen = best.chosen
                areas = Areas(width: width, height: height, pixels: pixels) { entries[$0 * choices + best.chosen[$0]] }
                step = step.squareRoot()
                weight = best.weight * step
            } else {
                // Too far already at the lowest weight tried: again from the nearest colours, lower.
                chosen = [Int](repeating: 0, count: count)
                areas = Areas(width: width, height: height, pixels: pixels, entry: nearest)
                kept = nil
                weight /= step
            }
        }
        let final = kept?.chosen ?? [Int](repeating: 0, count: count)
        return (0..<count).map { entries[$0 * choices + final[$0]] }
    }

    /// Passes over the picture in which each pixel takes, of its `choices` colours in `entries`
    /// (with their ΔE from it in `distances`), the one that lowers its own ΔE plus `weight` times
    /// the summed ΔE of the areas that hold it the most, if any lowers it; `chosen` holds each
    /// pixel's slot and `areas` the drawing's areas.
    private static func improve(_ chosen: inout [Int], areas: inout Areas, weight: Double, entries: [UInt8], distances: [Double]) {
        let count = chosen.count
        let pixelWeight = 1 / Double(count), areaWeight = weight / Double(areas.count)
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
                    let change = XtermPalette.linear[Int(entries[pixel * choices + slot])] - from
                    let gain = pixelGain + areaWeight * (before - areas.error(around: pixel, moving: change))
                    if gain > bestGain {
                        bestGain = gain
                        best = slot
                    }
                }
                guard best != current else { continue }
                areas.move(pixel, by: XtermPalette.linear[Int(entries[pixel * choices + best])] - from)
                chosen[pixel] = best
                changed = true
            }
            if !changed { break }
        }
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

        /// The mean ΔE of all the areas.
        var meanError: Double { errors.reduce(0, +) / Double(max(1, errors.count)) }

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
            let x = pixel % width, y = pixel / width
            for area in (y - 3...y).flatMap({ top in (x - 1...x).map { (top + 3) * columns + $0 + 1 } }) {
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
