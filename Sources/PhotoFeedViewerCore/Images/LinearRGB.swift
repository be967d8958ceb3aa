/// A colour in linear light with sRGB's primaries, each channel 0...1 for colours a screen
/// shows: the space where colours of neighbouring cells add up as the eye mixes them.
package struct LinearRGB: Equatable, Sendable {
    /// Red.
    package var red: Double
    /// Green.
    package var green: Double
    /// Blue.
    package var blue: Double

    /// A colour from its channels (black by default).
    package init(_ red: Double = 0, _ green: Double = 0, _ blue: Double = 0) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour of 8-bit sRGB samples.
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.init(CIELab.linear[Int(red)], CIELab.linear[Int(green)], CIELab.linear[Int(blue)])
    }

    /// The colour in CIELAB.
    package var lab: CIELab { CIELab(linearRed: red, green: green, blue: blue) }

    /// The channels added.
    package static func + (left: LinearRGB, right: LinearRGB) -> LinearRGB {
        LinearRGB(left.red + right.red, left.green + right.green, left.blue + right.blue)
    }

    /// The channels subtracted.
    package static func - (left: LinearRGB, right: LinearRGB) -> LinearRGB {
        LinearRGB(left.red - right.red, left.green - right.green, left.blue - right.blue)
    }

    /// The sum of the channels' products.
    @inline(__always)
    package func dot(_ other: LinearRGB) -> Double {
        red * other.red + green * other.green + blue * other.blue
    }

    /// The channels scaled.
    package static func * (left: LinearRGB, right: Double) -> LinearRGB {
        LinearRGB(left.red * right, left.green * right, left.blue * right)
    }
}
