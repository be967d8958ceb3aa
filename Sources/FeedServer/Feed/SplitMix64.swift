/// A small deterministic pseudo-random generator (SplitMix64), so equal seeds give equal feeds
/// (and seeded tests repeat exactly).
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Int.random(in: 1...6, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one position in a stream, independent of how many values other positions drew.
    init(seed: UInt64, stream: UInt64, index: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next() ^ (index &* 0xD1B5_4A32_D192_ED03)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &self)]
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// A value in `0..<upperBound` (`upperBound` > 0).
    public mutating func next(upperBound: UInt64) -> UInt64 {
        next() % upperBound
    }
}
