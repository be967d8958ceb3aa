/// A `Body.chunks` sequence brought more or fewer bytes than the length it was declared with.
public struct BodyLengthMismatch: Error, Sendable, Equatable {
    /// The length given with the sequence.
    public let declared: Int64
    /// The bytes it brought (counted up to the first one past `declared`).
    public let counted: Int64
}
