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
                func pixelGain(_ slot: Int) -> Double {
                    pixelWeight * (distances[pixel * choices + current] - distances[pixel * choices + slot])
                }
                // The most promising colour by the areas' first-order estimates, then checked exactly.
                var best = current, bestGain = 0.0
                for slot in 0..<choices where slot != current {
                    // Even areas made perfect could not pay for this colour: skip working them out.
                    guard pixelGain(slot) + areaWeight * before > bestGain else { continue }
                    let to = XtermPalette.linear[Int(entries[pixel * choices + slot])]
                    let gain = pixelGain(slot) + areaWeight * (before - areas.estimatedError(around: pixel, moving: to - from))
                    if gain > bestGain {
                        bestGain = gain
                        best = slot
                    }
                }
                guard best != current else { continue }
                let change = XtermPalette.linear[Int(entries[pixel * choices + best])] - from
                if pixelGain(best) + areaWeight * (before - areas.error(around: pixel, moving: change)) > 0 {
                    areas.move(pixel, by: change)
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
        /// The drawn mean colour of each area in CIELAB, and the gradient there.
        private var drawnLab: [CIELab] = []
        private var gradients: [CIELab.Gradient] = []

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
            errors.reserveCapacity(count)
            drawnLab.reserveCapacity(count)
            gradients.reserveCapacity(count)
            for area in 0..<count {
                let (lab, gradient) = CIELab.withGradient(of: drawn[area] * scale[area])
                drawnLab.append(lab)
                gradients.append(gradient)
                errors.append(lab.squaredDistance(to: wanted[area]).squareRoot())
            }
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

        /// The same, estimated to first order from each area's gradient: no conversion to CIELAB.
        func estimatedError(around pixel: Int, moving change: LinearRGB) -> Double {
            var total = 0.0
            forEachArea(holding: pixel) { area in
                total += gradients[area].moved(drawnLab[area], by: change * scale[area]).squaredDistance(to: wanted[area]).squareRoot()
            }
            return total
        }

        /// Changes `pixel`'s drawn colour by `change`.
        mutating func move(_ pixel: Int, by change: LinearRGB) {
            let x = pixel % width, y = pixel / width
            for area in (y - 3...y).flatMap({ top in (x - 1...x).map { (top + 3) * columns + $0 + 1 } }) {
                drawn[area] = drawn[area] + change
                let (lab, gradient) = CIELab.withGradient(of: drawn[area] * scale[area])
                drawnLab[area] = lab
                gradients[area] = gradient
                errors[area] = lab.squaredDistance(to: wanted[area]).squareRoot()
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
