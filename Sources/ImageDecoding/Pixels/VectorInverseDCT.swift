/// libjpeg's 8x8 "islow" IDCT with eight columns, then eight rows, in SIMD lanes, the way
/// libjpeg-turbo's `jidctint-sse2` does it: the same samples as libjpeg's C code for every block
/// whose coefficients fit 16 bits (all an 8-bit encoder with 8-bit quantization tables writes).
///
/// Coefficients and the values between the passes are kept to 16 bits (wrapping beyond, as in
/// libjpeg-turbo), so every product is a 16-bit value times a 16-bit constant: SSE2 has those
/// (`pmaddwd`), where 32-bit lane products are emulated. Only operations that lower to SSE2
/// instructions without generic calls are used: `&+`, `&-`, `&*`, shifts, bitwise operators,
/// `init(truncatingIfNeeded:)` and element-wise initializers (which become unpack instructions).
enum VectorInverseDCT {
    /// One 32-bit value per column (or, after the transpose, per row).
    typealias Lanes = SIMD8<Int32>
    /// An 8x8 block as eight vectors of 32-bit values.
    typealias Block = (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes)
    /// One 16-bit value per column or row.
    typealias Shorts = SIMD8<Int16>
    /// An 8x8 block as eight vectors of 16-bit values.
    typealias ShortBlock = (Shorts, Shorts, Shorts, Shorts, Shorts, Shorts, Shorts, Shorts)

    /// Writes the 8x8 samples of the natural-order coefficients `input` to `output`, rows
    /// `stride` apart.
    static func transform(_ input: UnsafePointer<Int32>, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let raw = UnsafeRawPointer(input)
        func row(_ index: Int) -> Lanes { raw.loadUnaligned(fromByteOffset: index &* 32, as: Lanes.self) }
        var block = widen(narrow((row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))))
        pass(&block, shift: 11)
        var shorts = narrow(block)
        transpose(&shorts)
        block = widen(shorts)
        pass(&block, shift: 18)
        shorts = narrow(block)
        shorts = (sample(shorts.0), sample(shorts.1), sample(shorts.2), sample(shorts.3),
                  sample(shorts.4), sample(shorts.5), sample(shorts.6), sample(shorts.7))
        transpose(&shorts)
        store(shorts.0, output)
        store(shorts.1, output + stride)
        store(shorts.2, output + 2 &* stride)
        store(shorts.3, output + 3 &* stride)
        store(shorts.4, output + 4 &* stride)
        store(shorts.5, output + 5 &* stride)
        store(shorts.6, output + 6 &* stride)
        store(shorts.7, output + 7 &* stride)
    }

    @inline(__always)
    private static func splat(_ value: Int32) -> Lanes { Lanes(repeating: value) }

    /// The islow 1-D transform down each lane (`block.n` is the n-th input), descaled by `shift`
    /// with rounding (11 after the columns, 18 after the rows, as libjpeg). libjpeg's products
    /// of sums are multiplied out so that each factor is an input: the same values (integer
    /// arithmetic distributes, wrapping or not), and each product 16 bits by 16 bits.
    @inline(__always)
    private static func pass(_ block: inout Block, shift: Int32) {
        let (v0, v1, v2, v3, v4, v5, v6, v7) = block
        // Even part: z1 = (v2 + v6) * 0.541196100, plus v6 * -1.847759065 and v2 * 0.765366865.
        let even2 = v2 &* splat(4_433) &+ v6 &* splat(-10_704)
        let even3 = v2 &* splat(10_703) &+ v6 &* splat(4_433)
        let even0 = (v0 &+ v4) &<< 13, even1 = (v0 &- v4) &<< 13
        let round = splat(1 &<< (shift &- 1))
        let tmp10 = even0 &+ even3 &+ round, tmp13 = even0 &- even3 &+ round
        let tmp11 = even1 &+ even2 &+ round, tmp12 = even1 &- even2 &+ round
        // Odd part: libjpeg's z1...z5 products of v1, v3, v5, v7, multiplied out.
        let odd0 = v7 &* splat(-11_363) &+ v1 &* splat(2_260) &+ v3 &* splat(-6_436) &+ v5 &* splat(9_633)
        let odd1 = v5 &* splat(2_261) &+ v3 &* splat(-11_362) &+ v7 &* splat(9_633) &+ v1 &* splat(6_437)
        let odd2 = v3 &* splat(-2_259) &+ v5 &* splat(-11_362) &+ v7 &* splat(-6_436) &+ v1 &* splat(9_633)
        let odd3 = v1 &* splat(11_363) &+ v7 &* splat(2_260) &+ v3 &* splat(9_633) &+ v5 &* splat(6_437)

        block.0 = (tmp10 &+ odd3) &>> shift
        block.7 = (tmp10 &- odd3) &>> shift
        block.1 = (tmp11 &+ odd2) &>> shift
        block.6 = (tmp11 &- odd2) &>> shift
        block.2 = (tmp12 &+ odd1) &>> shift
        block.5 = (tmp12 &- odd1) &>> shift
        block.3 = (tmp13 &+ odd0) &>> shift
        block.4 = (tmp13 &- odd0) &>> shift
    }

    /// The block's values kept to 16 bits.
    @inline(__always)
    private static func narrow(_ block: Block) -> ShortBlock { convert(block) }

    /// 16-bit values sign-extended to 32 bits (which tells the compiler they fit 16 bits).
    @inline(__always)
    private static func widen(_ block: ShortBlock) -> Block { convert(block) }

    /// Each of the eight vectors converted lane by lane (truncating or sign-extending).
    @inline(__always)
    private static func convert<From: FixedWidthInteger, To: FixedWidthInteger>(
        _ block: (SIMD8<From>, SIMD8<From>, SIMD8<From>, SIMD8<From>, SIMD8<From>, SIMD8<From>, SIMD8<From>, SIMD8<From>)
    ) -> (SIMD8<To>, SIMD8<To>, SIMD8<To>, SIMD8<To>, SIMD8<To>, SIMD8<To>, SIMD8<To>, SIMD8<To>) {
        typealias Out = SIMD8<To>
        return (Out(truncatingIfNeeded: block.0), Out(truncatingIfNeeded: block.1), Out(truncatingIfNeeded: block.2),
                Out(truncatingIfNeeded: block.3), Out(truncatingIfNeeded: block.4), Out(truncatingIfNeeded: block.5),
                Out(truncatingIfNeeded: block.6), Out(truncatingIfNeeded: block.7))
    }

    /// Transposes the block: three perfect shuffles of its 64 values (each moves the index bits
    /// `rrrccc` one place to the left, cyclically) make `cccrrr`.
    @inline(__always)
    private static func transpose(_ block: inout ShortBlock) {
        for _ in 0..<3 {
            block = (interleaveLow(block.0, block.4), interleaveHigh(block.0, block.4),
                     interleaveLow(block.1, block.5), interleaveHigh(block.1, block.5),
                     interleaveLow(block.2, block.6), interleaveHigh(block.2, block.6),
                     interleaveLow(block.3, block.7), interleaveHigh(block.3, block.7))
        }
    }

    @inline(__always)
    private static func interleaveLow(_ a: Shorts, _ b: Shorts) -> Shorts {
        Shorts(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    }

    @inline(__always)
    private static func interleaveHigh(_ a: Shorts, _ b: Shorts) -> Shorts {
        Shorts(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }

    /// Each value plus 128, clamped to 0...255 (with shifts and masks:
    /// `clamped(lowerBound:upperBound:)` stays a generic call).
    @inline(__always)
    private static func sample(_ values: Shorts) -> Shorts {
        let centered = values &+ 128
        let nonNegative = centered & ~(centered &>> 15)
        return nonNegative | ((255 &- nonNegative) &>> 15)
    }

    @inline(__always)
    private static func store(_ row: Shorts, _ output: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(output).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: row), as: SIMD8<UInt8>.self)
    }
}
