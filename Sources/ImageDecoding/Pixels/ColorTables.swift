/// libjpeg's YCbCr-to-RGB tables (16-bit fixed point, `jdcolor.c`), built once.
struct ColorTables: Sendable {
    static let shared = ColorTables()

    /// Red offset by Cr: `round(1.402 * (Cr - 128))`.
    let crToRed: [Int32]
    /// Blue offset by Cb: `round(1.772 * (Cb - 128))`.
    let cbToBlue: [Int32]
    /// Green terms, summed then shifted right 16: `-0.71414 * (Cr - 128)` and `-0.34414 * (Cb - 128) + 0.5`.
    let crToGreen: [Int32]
    let cbToGreen: [Int32]

    private init() {
        let half: Int32 = 1 << 15
        crToRed = (0..<256).map { (Int32(91_881) * Int32($0 - 128) + half) >> 16 }
        cbToBlue = (0..<256).map { (Int32(116_130) * Int32($0 - 128) + half) >> 16 }
        crToGreen = (0..<256).map { Int32(-46_802) * Int32($0 - 128) }
        cbToGreen = (0..<256).map { Int32(-22_554) * Int32($0 - 128) + half }
    }

    /// The four tables as pointers, valid inside `body`.
    struct Pointers {
        let crToRed, cbToBlue, crToGreen, cbToGreen: UnsafePointer<Int32>
    }

    func withPointers<R>(_ body: (Pointers) -> R) -> R {
        crToRed.withUnsafeBufferPointer { red in
            cbToBlue.withUnsafeBufferPointer { blue in
                crToGreen.withUnsafeBufferPointer { crGreen in
                    cbToGreen.withUnsafeBufferPointer { cbGreen in
                        body(Pointers(crToRed: red.baseAddress.unsafelyUnwrapped, cbToBlue: blue.baseAddress.unsafelyUnwrapped,
                                      crToGreen: crGreen.baseAddress.unsafelyUnwrapped,
                                      cbToGreen: cbGreen.baseAddress.unsafelyUnwrapped))
                    }
                }
            }
        }
    }
}
