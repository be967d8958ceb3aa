import Foundation

/// A colour in CIELAB (D65 white), where the straight distance between two colours (ΔE*ab,
/// CIE 1976) follows how different they look far better than a distance in RGB does.
package struct CIELab: Equatable, Sendable {
    /// Lightness, 0 (black) to 100 (white).
    package var l: Double
    /// Green (negative) to red (positive).
    package var a: Double
    /// Blue (negative) to yellow (positive).
    package var b: Double

    /// A colour from its three coordinates.
    package init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// The colour of linear-light RGB with sRGB's primaries, each 0...1.
    package init(linearRed red: Double, green: Double, blue: Double) {
        let colour = LinearRGB(red, green, blue)
        self.init(fx: Self.f(Self.x.dot(colour)), fy: Self.f(Self.y.dot(colour)), fz: Self.f(Self.z.dot(colour)))
    }

    private init(fx: Double, fy: Double, fz: Double) {
        self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    // sRGB to XYZ (IEC 61966-2-1), each row divided by D65's white point.
    private static let x = LinearRGB(0.412_456_4 / 0.950_47, 0.357_576_1 / 0.950_47, 0.180_437_5 / 0.950_47)
    private static let y = LinearRGB(0.212_672_9, 0.715_152_2, 0.072_175_0)
    private static let z = LinearRGB(0.019_333_9 / 1.088_83, 0.119_192_0 / 1.088_83, 0.950_304_1 / 1.088_83)

    /// The colour of 8-bit sRGB samples.
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.init(linearRed: Self.linear[Int(red)], green: Self.linear[Int(green)], blue: Self.linear[Int(blue)])
    }

    /// The squared ΔE*ab between the two colours (squared, so comparing needs no root).
    package func squaredDistance(to other: CIELab) -> Double {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return dl * dl + da * da + db * db
    }

    /// Each 8-bit sRGB sample in linear light (0...1), by sRGB's transfer function.
    package static let linear: [Double] = (0...255).map { value in
        let encoded = Double(value) / 255
        return encoded <= 0.040_45 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    private static func f(_ t: Double) -> Double {
        // (6/29)^3 and the slope 1 / (3 (6/29)^2) of the linear part near black.
        t > 0.008_856_451_679 ? cubeRoot(t) : t * 7.787_037_037 + 4.0 / 29.0
    }

    /// The cube root of `t` > 0, to within a part in 10^12: a first guess from the exponent's
    /// bits (a third of the exponent), then two of Halley's steps, one division each. libm's
    /// `cbrt` was half the time of drawing a picture in 256 colours.
    @inline(__always)
    static func cubeRoot(_ t: Double) -> Double {
        var root = Double(bitPattern: t.bitPattern / 3 &+ 0x2A9F_7893_782D_A1CE)
        var cube = root * root * root
        root *= (cube + 2 * t) / (2 * cube + t)
        cube = root * root * root
        return root * (cube + 2 * t) / (2 * cube + t)
    }
}
