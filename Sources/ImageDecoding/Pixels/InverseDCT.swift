/// libjpeg's integer inverse DCTs ("islow" for 8x8, in `VectorInverseDCT`, and the reduced 4x4,
/// 2x2 and 1x1 ones used for scaled decoding), computed the same way so results match libjpeg's
/// sample for sample.
///
/// Inputs are 64 dequantized coefficients in natural order; arithmetic wraps instead of trapping
/// (only corrupt data comes near the limits), and outputs are clamped to 0...255.
enum InverseDCT {
    // 13-bit fixed-point constants, as libjpeg's FIX(x).
    private static let fix0_211164243 = 1_730, fix0_509795579 = 4_176, fix0_601344887 = 4_926
    private static let fix0_720959822 = 5_906, fix0_765366865 = 6_270, fix0_850430095 = 6_967
    private static let fix0_899976223 = 7_373, fix1_061594337 = 8_697, fix1_272758580 = 10_426
    private static let fix1_451774981 = 11_893, fix1_847759065 = 15_137, fix2_172734803 = 17_799
    private static let fix2_562915447 = 20_995, fix3_624509785 = 29_692

    @inline(__always)
    private static func sample(_ value: Int) -> UInt8 {
        UInt8(clamping: value &+ 128)
    }

    /// Writes the `size` x `size` (8, 4, 2 or 1) block of `input` to `output`, rows `stride` apart.
    /// `workspace` holds at least 64 values.
    @inline(__always)
    static func transform(_ input: UnsafePointer<Int32>, size: Int, workspace: UnsafeMutablePointer<Int>,
                          output: UnsafeMutablePointer<UInt8>, stride: Int) {
        switch size {
        case 8: VectorInverseDCT.transform(input, output: output, stride: stride)
        case 4: transform4(input, workspace, output, stride)
        case 2: transform2(input, output, stride)
        default: output[0] = sample((Int(input[0]) &+ 4) &>> 3)
        }
    }

    /// Fills the `size` x `size` block with the value of a block whose only coefficient is `dc`
    /// (every IDCT above gives exactly this for such a block).
    @inline(__always)
    static func fillDC(_ dc: Int32, size: Int, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let value = sample((Int(dc) &+ 4) &>> 3)
        for row in 0..<size {
            (output + row * stride).update(repeating: value, count: size)
        }
    }

    /// libjpeg's `jpeg_idct_4x4`: column 4 and rows 4 are not needed for a 4x4 result.
    private static func transform4(_ input: UnsafePointer<Int32>, _ workspace: UnsafeMutablePointer<Int>,
                                   _ output: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        for column in 0..<8 where column != 4 {
            let c = input + column
            let w = workspace + column
            if c[8] == 0, c[16] == 0, c[24] == 0, c[40] == 0, c[48] == 0, c[56] == 0 {
                let dc = Int(c[0]) &<< 2
                for row in 0..<4 { w[row * 8] = dc }
                continue
            }
            let tmp0 = Int(c[0]) &<< 14
            let tmp2 = Int(c[16]) &* fix1_847759065 &+ Int(c[48]) &* -fix0_765366865
            let tmp10 = tmp0 &+ tmp2, tmp12 = tmp0 &- tmp2
            let z1 = Int(c[56]), z2 = Int(c[40]), z3 = Int(c[24]), z4 = Int(c[8])
            let odd0 = z1 &* -fix0_211164243 &+ z2 &* fix1_451774981 &+ z3 &* -fix2_172734803 &+ z4 &* fix1_061594337
            let odd2 = z1 &* -fix0_509795579 &+ z2 &* -fix0_601344887 &+ z3 &* fix0_899976223 &+ z4 &* fix2_562915447
            let round = 1 << 11
            w[0] = (tmp10 &+ odd2 &+ round) &>> 12
            w[24] = (tmp10 &- odd2 &+ round) &>> 12
            w[8] = (tmp12 &+ odd0 &+ round) &>> 12
            w[16] = (tmp12 &- odd0 &+ round) &>> 12
        }
        for row in 0..<4 {
            let w = workspace + row * 8
            let o = output + row * stride
            if w[1] == 0, w[2] == 0, w[3] == 0, w[5] == 0, w[6] == 0, w[7] == 0 {
                o.update(repeating: sample((w[0] &+ 16) &>> 5), count: 4)
                continue
            }
            let tmp0 = w[0] &<< 14
            let tmp2 = w[2] &* fix1_847759065 &+ w[6] &* -fix0_765366865
            let tmp10 = tmp0 &+ tmp2, tmp12 = tmp0 &- tmp2
            let z1 = w[7], z2 = w[5], z3 = w[3], z4 = w[1]
            let odd0 = z1 &* -fix0_211164243 &+ z2 &* fix1_451774981 &+ z3 &* -fix2_172734803 &+ z4 &* fix1_061594337
            let odd2 = z1 &* -fix0_509795579 &+ z2 &* -fix0_601344887 &+ z3 &* fix0_899976223 &+ z4 &* fix2_562915447
            let round = 1 << 18
            o[0] = sample((tmp10 &+ odd2 &+ round) &>> 19)
            o[3] = sample((tmp10 &- odd2 &+ round) &>> 19)
            o[1] = sample((tmp12 &+ odd0 &+ round) &>> 19)
            o[2] = sample((tmp12 &- odd0 &+ round) &>> 19)
        }
    }

    /// libjpeg's `jpeg_idct_2x2`: only the odd coefficients 1, 3, 5, 7 matter beside the DC.
    private static func transform2(_ input: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt8>,
                                   _ stride: Int) {
        var workspace: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &workspace) { raw in
            let w = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
            for column in [0, 1, 3, 5, 7] {
                let c = input + column
                if c[8] == 0, c[24] == 0, c[40] == 0, c[56] == 0 {
                    let dc = Int(c[0]) &<< 2
                    w[column] = dc
                    w[column + 8] = dc
                    continue
                }
                let tmp10 = Int(c[0]) &<< 15
                let tmp0 = Int(c[56]) &* -fix0_720959822 &+ Int(c[40]) &* fix0_850430095
                    &+ Int(c[24]) &* -fix1_272758580 &+ Int(c[8]) &* fix3_624509785
                let round = 1 << 12
                w[column] = (tmp10 &+ tmp0 &+ round) &>> 13
                w[column + 8] = (tmp10 &- tmp0 &+ round) &>> 13
            }
            for row in 0..<2 {
                let r = w + row * 8
                let o = output + row * stride
                let tmp10 = r[0] &<< 15
                let tmp0 = r[7] &* -fix0_720959822 &+ r[5] &* fix0_850430095
                    &+ r[3] &* -fix1_272758580 &+ r[1] &* fix3_624509785
                let round = 1 << 19
                o[0] = sample((tmp10 &+ tmp0 &+ round) &>> 20)
                o[1] = sample((tmp10 &- tmp0 &+ round) &>> 20)
            }
        }
    }
}
