/// Row conversions to interleaved RGB, with libjpeg's YCbCr arithmetic and Pillow's CMYK one
/// (Adobe files store CMYK inverted).
enum ColorConversion {
    @inline(__always)
    private static func clamp(_ value: Int32) -> UInt8 { UInt8(clamping: value) }

    static func grey(_ y: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ width: Int) {
        for x in 0..<width {
            let value = y[x]
            out[3 * x] = value
            out[3 * x + 1] = value
            out[3 * x + 2] = value
        }
    }

    static func rgb(_ r: UnsafePointer<UInt8>, _ g: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                    _ out: UnsafeMutablePointer<UInt8>, _ width: Int) {
        for x in 0..<width {
            out[3 * x] = r[x]
            out[3 * x + 1] = g[x]
            out[3 * x + 2] = b[x]
        }
    }

    /// libjpeg's fixed-point formulas (the values `ColorTables` holds) computed instead of looked
    /// up: eight pixels at a time in 16-bit lanes (`yCbCr8`), the last few one by one.
    static func yCbCr(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                      _ out: UnsafeMutablePointer<UInt8>, _ width: Int) {
        var start = 0
        // Each group of eight stores 26 bytes (the last 2 rewritten by the next group): a group
        // runs only while a ninth pixel's room follows it.
        while start &+ 9 <= width {
            yCbCr8(y + start, cb + start, cr + start, out + 3 &* start)
            start &+= 8
        }
        for x in start..<width {
            let luma = Int32(y[x]), blue = Int32(cb[x]) &- 128, red = Int32(cr[x]) &- 128
            out[3 &* x] = clamp(luma &+ ((red &* 91_881 &+ 32_768) &>> 16))
            out[3 &* x &+ 1] = clamp(luma &+ ((blue &* -22_554 &+ 32_768 &+ red &* -46_802) &>> 16))
            out[3 &* x &+ 2] = clamp(luma &+ ((blue &* 116_130 &+ 32_768) &>> 16))
        }
    }

    private typealias Shorts = SIMD8<Int16>
    private typealias Words = SIMD4<Int32>

    /// Eight pixels of `yCbCr`, the same values: each factor outside 16 bits is split into a
    /// multiple of 65536, added after the shift, and a 16-bit rest (91881 = 65536 + 26345,
    /// -46802 = -65536 + 18734, 116130 = 131072 - 14942), so every product is 16 x 16 bits,
    /// which SSE2 multiplies natively. Red and blue round the high half of a doubled product as
    /// libjpeg-turbo's SIMD does: `((2c * f) >> 16 + 1) >> 1` is `(c * f + 32768) >> 16`.
    /// Stores 26 bytes: the 24 of the pixels and 2 the caller's next group rewrites. (Lanes are
    /// widened and narrowed element by element: the `truncatingIfNeeded:` initializers stay calls.)
    @inline(__always)
    private static func yCbCr8(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                               _ out: UnsafeMutablePointer<UInt8>) {
        let luma = load(y), blue = load(cb) &- 128, red = load(cr) &- 128
        let redOffset = red &+ ((high(red &<< 1, 26_345) &+ 1) &>> 1)
        let blueOffset = (blue &<< 1) &+ ((high(blue &<< 1, -14_942) &+ 1) &>> 1)
        let round = Words(repeating: 32_768)
        let greenLow = widenLow(blue) &* Words(repeating: -22_554) &+ widenLow(red) &* Words(repeating: 18_734) &+ round
        let greenHigh = widenHigh(blue) &* Words(repeating: -22_554) &+ widenHigh(red) &* Words(repeating: 18_734) &+ round
        let greenOffset = narrow(greenLow &>> 16, greenHigh &>> 16) &- red
        let r = clamp(luma &+ redOffset), g = clamp(luma &+ greenOffset), b = clamp(luma &+ blueOffset)
        // Bytes r g b 0 per pixel (one 32-bit lane each), then each 64-bit half (two pixels)
        // squeezed to its low 6 bytes and stored 6 bytes apart.
        let first = squeeze(widenLow(r) | widenLow(g) &<< 8 | widenLow(b) &<< 16)
        let second = squeeze(widenHigh(r) | widenHigh(g) &<< 8 | widenHigh(b) &<< 16)
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: first[0], toByteOffset: 0, as: UInt64.self)
        raw.storeBytes(of: first[1], toByteOffset: 6, as: UInt64.self)
        raw.storeBytes(of: second[0], toByteOffset: 12, as: UInt64.self)
        raw.storeBytes(of: second[1], toByteOffset: 18, as: UInt64.self)
    }

    /// Eight samples as 16-bit lanes.
    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>) -> Shorts {
        let bytes = UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<UInt8>.self)
        return Shorts(Int16(bytes[0]), Int16(bytes[1]), Int16(bytes[2]), Int16(bytes[3]),
                      Int16(bytes[4]), Int16(bytes[5]), Int16(bytes[6]), Int16(bytes[7]))
    }

    /// Lanes 0...3 sign-extended to 32 bits.
    @inline(__always)
    private static func widenLow(_ values: Shorts) -> Words {
        Words(Int32(values[0]), Int32(values[1]), Int32(values[2]), Int32(values[3]))
    }

    /// Lanes 4...7 sign-extended to 32 bits.
    @inline(__always)
    private static func widenHigh(_ values: Shorts) -> Words {
        Words(Int32(values[4]), Int32(values[5]), Int32(values[6]), Int32(values[7]))
    }

    /// The low 16 bits of each lane of `low`, then of `high`.
    @inline(__always)
    private static func narrow(_ low: Words, _ high: Words) -> Shorts {
        Shorts(Int16(truncatingIfNeeded: low[0]), Int16(truncatingIfNeeded: low[1]),
               Int16(truncatingIfNeeded: low[2]), Int16(truncatingIfNeeded: low[3]),
               Int16(truncatingIfNeeded: high[0]), Int16(truncatingIfNeeded: high[1]),
               Int16(truncatingIfNeeded: high[2]), Int16(truncatingIfNeeded: high[3]))
    }

    /// `(value * factor) >> 16` in each lane, the high half of a 16 x 16-bit product.
    @inline(__always)
    private static func high(_ values: Shorts, _ factor: Int32) -> Shorts {
        let multiplier = Words(repeating: factor)
        return narrow((widenLow(values) &* multiplier) &>> 16, (widenHigh(values) &* multiplier) &>> 16)
    }

    /// Two pixels `r g b 0` in each 64-bit half, packed into that half's low 6 bytes.
    @inline(__always)
    private static func squeeze(_ pixels: Words) -> SIMD2<UInt64> {
        let pairs = unsafeBitCast(pixels, to: SIMD2<UInt64>.self)
        return (pairs & SIMD2(repeating: 0xFF_FFFF)) | ((pairs &>> 8) & SIMD2(repeating: 0xFFFF_FF00_0000))
    }

    /// Each lane clamped to 0...255 with shifts and masks (`clamped(lowerBound:upperBound:)`
    /// stays a generic call).
    @inline(__always)
    private static func clamp(_ values: Shorts) -> Shorts {
        let nonNegative = values & ~(values &>> 15)
        return (nonNegative | ((255 &- nonNegative) &>> 15)) & 255
    }

    /// Inverted CMYK (or YCCK, converted to it first as libjpeg does) to RGB the way Pillow's
    /// `convert("RGB")` does: each channel `(255 - K) - (255 - K) * C / 255`, rounded.
    static func cmyk(_ c: UnsafePointer<UInt8>, _ m: UnsafePointer<UInt8>, _ yellow: UnsafePointer<UInt8>,
                     _ k: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ width: Int, ycck: Bool,
                     _ tables: ColorTables.Pointers) {
        for x in 0..<width {
            var stored = (Int32(c[x]), Int32(m[x]), Int32(yellow[x]))
            if ycck {
                let luma = stored.0, blue = Int(m[x]), red = Int(yellow[x])
                stored = (255 - Int32(clamp(luma &+ tables.crToRed[red])),
                          255 - Int32(clamp(luma &+ ((tables.cbToGreen[blue] &+ tables.crToGreen[red]) >> 16))),
                          255 - Int32(clamp(luma &+ tables.cbToBlue[blue])))
            }
            let notBlack = Int32(k[x])
            out[3 * x] = channel(ink: 255 - stored.0, notBlack: notBlack)
            out[3 * x + 1] = channel(ink: 255 - stored.1, notBlack: notBlack)
            out[3 * x + 2] = channel(ink: 255 - stored.2, notBlack: notBlack)
        }
    }

    @inline(__always)
    private static func channel(ink: Int32, notBlack: Int32) -> UInt8 {
        let product = ink * notBlack + 128
        return clamp(notBlack - (((product >> 8) + product) >> 8))
    }
}
