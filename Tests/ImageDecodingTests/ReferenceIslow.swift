/// libjpeg's `jpeg_idct_islow` written plainly in 64-bit arithmetic (the decoder's scalar 8x8
/// IDCT before `VectorInverseDCT`): the reference the vector transform is checked against.
enum ReferenceIslow {
    /// The 8x8 samples of 64 dequantized coefficients in natural order, row by row.
    static func samples(_ coefficients: [Int32]) -> [UInt8] {
        var workspace = [Int](repeating: 0, count: 64)
        for column in 0..<8 {
            let values = (0..<8).map { Int(coefficients[$0 * 8 + column]) }
            let results = pass(values, shift: 11)
            for row in 0..<8 { workspace[row * 8 + column] = results[row] }
        }
        var output = [UInt8](repeating: 0, count: 64)
        for row in 0..<8 {
            let results = pass(Array(workspace[(row * 8)..<(row * 8 + 8)]), shift: 18)
            for column in 0..<8 { output[row * 8 + column] = UInt8(clamping: results[column] + 128) }
        }
        return output
    }

    /// One 1-D pass over 8 values, descaled by `shift` with rounding.
    private static func pass(_ v: [Int], shift: Int) -> [Int] {
        var z2 = v[2], z3 = v[6]
        var z1 = (z2 + z3) * 4_433
        var tmp2 = z1 + z3 * -15_137
        var tmp3 = z1 + z2 * 6_270
        var tmp0 = (v[0] + v[4]) << 13
        var tmp1 = (v[0] - v[4]) << 13
        let tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2

        tmp0 = v[7]; tmp1 = v[5]; tmp2 = v[3]; tmp3 = v[1]
        z1 = tmp0 + tmp3; z2 = tmp1 + tmp2; z3 = tmp0 + tmp2
        var z4 = tmp1 + tmp3
        let z5 = (z3 + z4) * 9_633
        tmp0 *= 2_446; tmp1 *= 16_819; tmp2 *= 25_172; tmp3 *= 12_299
        z1 *= -7_373; z2 *= -20_995
        z3 = z3 * -16_069 + z5; z4 = z4 * -3_196 + z5
        tmp0 += z1 + z3; tmp1 += z2 + z4; tmp2 += z2 + z3; tmp3 += z1 + z4

        let round = 1 << (shift - 1)
        return [tmp10 + tmp3, tmp11 + tmp2, tmp12 + tmp1, tmp13 + tmp0,
                tmp13 - tmp0, tmp12 - tmp1, tmp11 - tmp2, tmp10 - tmp3].map { ($0 + round) >> shift }
    }
}
