/// libjpeg's 8x8 "islow" IDCT (`InverseDCT`'s arithmetic, the same samples) with eight columns,
/// then eight rows, in the lanes of `SIMD8<Int32>` values.
///
/// Only operations that lower to SSE2 instructions without generic calls are used: `&+`, `&-`,
/// `&*`, shifts, bitwise operators, lane reads and element-wise initializers (which become
/// shuffles). Arithmetic wraps at 32 bits, as in libjpeg built with a 32-bit `INT32`; only
/// coefficients far outside what an 8-bit encoder produces come near that limit.
enum VectorInverseDCT {
    /// One value per column (or, after the transpose, per row).
    typealias Lanes = SIMD8<Int32>
    /// An 8x8 block as eight vectors.
    typealias Block = (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes)

    /// Writes the 8x8 samples of the natural-order coefficients `input` to `output`, rows
    /// `stride` apart.
    static func transform(_ input: UnsafePointer<Int32>, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let raw = UnsafeRawPointer(input)
        func row(_ index: Int) -> Lanes { raw.loadUnaligned(fromByteOffset: index &* 32, as: Lanes.self) }
        var block = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        pass(&block, shift: 11)
        transpose(&block)
        pass(&block, shift: 18)
        transpose(&block)
        store(block.0, output)
        store(block.1, output + stride)
        store(block.2, output + 2 &* stride)
        store(block.3, output + 3 &* stride)
        store(block.4, output + 4 &* stride)
        store(block.5, output + 5 &* stride)
        store(block.6, output + 6 &* stride)
        store(block.7, output + 7 &* stride)
    }

    @inline(__always)
    private static func splat(_ value: Int32) -> Lanes { Lanes(repeating: value) }

    /// The islow 1-D transform down each lane (`block.n` is the n-th input), descaled by `shift`
    /// with rounding (11 after the columns, 18 after the rows, as libjpeg).
    @inline(__always)
    private static func pass(_ block: inout Block, shift: Int32) {
        var z2 = block.2, z3 = block.6
        var z1 = (z2 &+ z3) &* splat(4_433)
        var tmp2 = z1 &+ z3 &* splat(-15_137)
        var tmp3 = z1 &+ z2 &* splat(6_270)
        z2 = block.0
        z3 = block.4
        var tmp0 = (z2 &+ z3) &<< 13
        var tmp1 = (z2 &- z3) &<< 13
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2

        tmp0 = block.7; tmp1 = block.5; tmp2 = block.3; tmp3 = block.1
        z1 = tmp0 &+ tmp3; z2 = tmp1 &+ tmp2; z3 = tmp0 &+ tmp2
        var z4 = tmp1 &+ tmp3
        let z5 = (z3 &+ z4) &* splat(9_633)
        tmp0 = tmp0 &* splat(2_446); tmp1 = tmp1 &* splat(16_819)
        tmp2 = tmp2 &* splat(25_172); tmp3 = tmp3 &* splat(12_299)
        z1 = z1 &* splat(-7_373); z2 = z2 &* splat(-20_995)
        z3 = z3 &* splat(-16_069) &+ z5; z4 = z4 &* splat(-3_196) &+ z5
        tmp0 = tmp0 &+ z1 &+ z3; tmp1 = tmp1 &+ z2 &+ z4
        tmp2 = tmp2 &+ z2 &+ z3; tmp3 = tmp3 &+ z1 &+ z4

        let round = splat(1 &<< (shift &- 1))
        let even0 = tmp10 &+ round, even1 = tmp11 &+ round, even2 = tmp12 &+ round, even3 = tmp13 &+ round
        block.0 = (even0 &+ tmp3) &>> shift
        block.7 = (even0 &- tmp3) &>> shift
        block.1 = (even1 &+ tmp2) &>> shift
        block.6 = (even1 &- tmp2) &>> shift
        block.2 = (even2 &+ tmp1) &>> shift
        block.5 = (even2 &- tmp1) &>> shift
        block.3 = (even3 &+ tmp0) &>> shift
        block.4 = (even3 &- tmp0) &>> shift
    }

    /// Transposes the block: three perfect shuffles of its 64 values (each moves the index bits
    /// `rrrccc` one place to the left, cyclically) make `cccrrr`.
    @inline(__always)
    private static func transpose(_ block: inout Block) {
        for _ in 0..<3 {
            block = (interleaveLow(block.0, block.4), interleaveHigh(block.0, block.4),
                     interleaveLow(block.1, block.5), interleaveHigh(block.1, block.5),
                     interleaveLow(block.2, block.6), interleaveHigh(block.2, block.6),
                     interleaveLow(block.3, block.7), interleaveHigh(block.3, block.7))
        }
    }

    @inline(__always)
    private static func interleaveLow(_ a: Lanes, _ b: Lanes) -> Lanes {
        Lanes(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    }

    @inline(__always)
    private static func interleaveHigh(_ a: Lanes, _ b: Lanes) -> Lanes {
        Lanes(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }

    /// Stores one row: each value plus 128, clamped to 0...255 (with shifts and masks:
    /// `clamped(lowerBound:upperBound:)` stays a generic call).
    @inline(__always)
    private static func store(_ row: Lanes, _ output: UnsafeMutablePointer<UInt8>) {
        let centered = row &+ 128
        let nonNegative = centered & ~(centered &>> 31)
        let saturated = nonNegative | ((255 &- nonNegative) &>> 31)
        UnsafeMutableRawPointer(output).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: saturated), as: SIMD8<UInt8>.self)
    }
}
