import Foundation

/// The picture `FeedServer` serves for a demo photo: painted from a seed (a landscape with sun
/// and ridges, a city at dusk, or overlapping shapes), so the same photo always looks the same
/// and every photo looks different.
///
/// ```swift
/// let jpeg = DemoPicture(name: "54000000007_0a1b2c3d4e_m.jpg").jpeg()
/// ```
public struct DemoPicture: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The seed the picture is painted from.
    public let seed: UInt64

    /// The picture of the photo file `name` (its seed is a hash of the name): 240 pixels wide,
    /// 160, 180 or 240 high, as Flickr's `_m` size.
    public init(name: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var random = SplitMix64(seed: hash)
        self.init(seed: hash, width: 240, height: random.pick([160, 180, 240]))
    }

    /// The picture of `seed` at `width` x `height` (each 1...4096).
    public init(seed: UInt64, width: Int, height: Int) {
        self.seed = seed
        self.width = min(4_096, max(1, width))
        self.height = min(4_096, max(1, height))
    }

    /// RGB bytes, row-major, three per pixel.
    public func pixels() -> [UInt8] {
        var canvas = Canvas(width: width, height: height)
        var random = SplitMix64(seed: seed)
        switch Int(random.next(upperBound: 3)) {
        case 0: paintLandscape(&canvas, &random)
        case 1: paintCity(&canvas, &random)
        default: paintShapes(&canvas, &random)
        }
        return canvas.bytes
    }

    /// The picture as a baseline JPEG file.
    public func jpeg(quality: Int = 85) -> [UInt8] {
        BaselineJPEGEncoder(quality: quality).encode(width: width, height: height, rgb: pixels())
    }

    // MARK: - Scenes

    private func paintLandscape(_ canvas: inout Canvas, _ random: inout SplitMix64) {
        let skyTop = Colour.random(&random, brightness: 0.35...0.7)
        let horizon = Colour.random(&random, brightness: 0.75...1)
        canvas.verticalGradient(from: skyTop, to: horizon, rows: 0..<height)
        let sunX = Double(random.next(upperBound: UInt64(width)))
        let sunY = Double(height) * (0.15 + Double(random.next(upperBound: 30)) / 100)
        let sunRadius = Double(height) * (0.08 + Double(random.next(upperBound: 8)) / 100)
        canvas.disc(centreX: sunX, centreY: sunY, radius: sunRadius, colour: Colour(red: 255, green: 236, blue: 170), opacity: 0.95)
        let ridges = 2 + Int(random.next(upperBound: 2))
        var base = Colour.random(&random, brightness: 0.3...0.6)
        for ridge in 0..<ridges {
            let level = Double(height) * (0.45 + 0.15 * Double(ridge))
            let amplitude = Double(height) * 0.12
            let phases = (0..<3).map { _ in Double(random.next(upperBound: 628)) / 100 }
            for x in 0..<width {
                let t = Double(x) / Double(width)
                let wave = sin(t * 3.1 + phases[0]) * 0.6 + sin(t * 7.7 + phases[1]) * 0.3 + sin(t * 17.3 + phases[2]) * 0.1
                let top = max(0, Int(level - wave * amplitude))
                for y in top..<height {
                    let shade = 1 - 0.35 * Double(y - top) / Double(max(1, height - top))
                    canvas.set(x: x, y: y, base.scaled(shade))
                }
            }
            base = base.scaled(0.7)
        }
    }

    private func paintCity(_ canvas: inout Canvas, _ random: inout SplitMix64) {
        canvas.verticalGradient(from: Colour.random(&random, brightness: 0.1...0.3),
                                to: Colour.random(&random, brightness: 0.6...0.9), rows: 0..<height)
        var x = 0
        while x < width {
            let buildingWidth = 14 + Int(random.next(upperBound: 30))
            let top = height / 4 + Int(random.next(upperBound: UInt64(height / 2)))
            let wall = Colour.random(&random, brightness: 0.1...0.25)
            canvas.fill(columns: x..<min(width, x + buildingWidth), rows: top..<height, wall)
            let light = Colour(red: 255, green: 214, blue: 120)
            var windowY = top + 4
            while windowY + 4 < height {
                var windowX = x + 3
                while windowX + 4 < min(width, x + buildingWidth) {
                    if random.next(upperBound: 3) == 0 {
                        canvas.fill(columns: windowX..<windowX + 3, rows: windowY..<windowY + 4, light)
                    }
                    windowX += 6
                }
                windowY += 8
            }
            x += buildingWidth + Int(random.next(upperBound: 4))
        }
    }

    private func paintShapes(_ canvas: inout Canvas, _ random: inout SplitMix64) {
        let first = Colour.random(&random, brightness: 0.5...0.9)
        let second = Colour.random(&random, brightness: 0.2...0.6)
        canvas.verticalGradient(from: first, to: second, rows: 0..<height)
        for _ in 0..<(3 + Int(random.next(upperBound: 4))) {
            let colour = Colour.random(&random, brightness: 0.4...1)
            let centreX = Double(random.next(upperBound: UInt64(width)))
            let centreY = Double(random.next(upperBound: UInt64(height)))
            let size = Double(min(width, height)) * (0.1 + Double(random.next(upperBound: 25)) / 100)
            if random.next(upperBound: 2) == 0 {
                canvas.disc(centreX: centreX, centreY: centreY, radius: size, colour: colour, opacity: 0.75)
            } else {
                let left = max(0, Int(centreX - size)), top = max(0, Int(centreY - size / 2))
                canvas.fill(columns: left..<min(width, Int(centreX + size)), rows: top..<min(height, Int(centreY + size / 2)), colour)
            }
        }
    }
}

/// An RGB colour of a demo picture.
private struct Colour {
    var red: Double
    var green: Double
    var blue: Double

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A saturated colour whose brightest channel is in `brightness` (0...1).
    static func random(_ random: inout SplitMix64, brightness: ClosedRange<Double>) -> Colour {
        let peak = 255 * (brightness.lowerBound + (brightness.upperBound - brightness.lowerBound) * Double(random.next(upperBound: 1_000)) / 1_000)
        let hue = Double(random.next(upperBound: 360))
        func channel(_ offset: Double) -> Double {
            let k = (hue / 60 + offset).truncatingRemainder(dividingBy: 6)
            return peak * (1 - 0.75 * max(0, min(k, 4 - k, 1)))
        }
        return Colour(red: channel(5), green: channel(3), blue: channel(1))
    }

    func scaled(_ factor: Double) -> Colour {
        Colour(red: red * factor, green: green * factor, blue: blue * factor)
    }

    func mixed(with other: Colour, _ amount: Double) -> Colour {
        Colour(red: red + (other.red - red) * amount, green: green + (other.green - green) * amount,
               blue: blue + (other.blue - blue) * amount)
    }
}

/// The pixels being painted.
private struct Canvas {
    let width: Int
    let height: Int
    var bytes: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.bytes = [UInt8](repeating: 0, count: width * height * 3)
    }

    func get(x: Int, y: Int) -> Colour {
        let offset = (y * width + x) * 3
        return Colour(red: Double(bytes[offset]), green: Double(bytes[offset + 1]), blue: Double(bytes[offset + 2]))
    }

    mutating func set(x: Int, y: Int, _ colour: Colour) {
        let offset = (y * width + x) * 3
        bytes[offset] = UInt8(max(0, min(255, colour.red.rounded())))
        bytes[offset + 1] = UInt8(max(0, min(255, colour.green.rounded())))
        bytes[offset + 2] = UInt8(max(0, min(255, colour.blue.rounded())))
    }

    mutating func verticalGradient(from top: Colour, to bottom: Colour, rows: Range<Int>) {
        for y in rows {
            let colour = top.mixed(with: bottom, Double(y - rows.lowerBound) / Double(max(1, rows.count - 1)))
            for x in 0..<width { set(x: x, y: y, colour) }
        }
    }

    mutating func fill(columns: Range<Int>, rows: Range<Int>, _ colour: Colour) {
        guard !columns.isEmpty, !rows.isEmpty else { return }
        for y in rows where y >= 0 && y < height {
            for x in columns where x >= 0 && x < width { set(x: x, y: y, colour) }
        }
    }

    /// A disc with a one-pixel soft edge, blended over what is there.
    mutating func disc(centreX: Double, centreY: Double, radius: Double, colour: Colour, opacity: Double) {
        let rows = max(0, Int(centreY - radius - 1))..<min(height, Int(centreY + radius + 2))
        let columns = max(0, Int(centreX - radius - 1))..<min(width, Int(centreX + radius + 2))
        guard !rows.isEmpty, !columns.isEmpty else { return }
        for y in rows {
            for x in columns {
                let distance = ((Double(x) - centreX) * (Double(x) - centreX) + (Double(y) - centreY) * (Double(y) - centreY)).squareRoot()
                let coverage = max(0, min(1, radius - distance + 0.5)) * opacity
                if coverage > 0 { set(x: x, y: y, get(x: x, y: y).mixed(with: colour, coverage)) }
            }
        }
    }
}
