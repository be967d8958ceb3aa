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
    /// up: without the table loads the compiler vectorizes the loop.
    static func yCbCr(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                      _ out: UnsafeMutablePointer<UInt8>, _ width: Int) {
        for x in 0..<width {
            let luma = Int32(y[x]), blue = Int32(cb[x]) &- 128, red = Int32(cr[x]) &- 128
            out[3 &* x] = clamp(luma &+ ((red &* 91_881 &+ 32_768) &>> 16))
            out[3 &* x &+ 1] = clamp(luma &+ ((blue &* -22_554 &+ 32_768 &+ red &* -46_802) &>> 16))
            out[3 &* x &+ 2] = clamp(luma &+ ((blue &* 116_130 &+ 32_768) &>> 16))
        }
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
