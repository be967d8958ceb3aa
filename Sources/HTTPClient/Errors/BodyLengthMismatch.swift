/// A request body brought more or fewer bytes than the `Content-Length` sent for it: a
/// `Body.chunks` sequence or a `Body.stream` than the length it was declared with, a
/// `Body.file` than its size when it was opened.
public struct BodyLengthMismatch: Error, Sendable, Equatable {
    /// The length sent (given with the sequence or stream, or the file's size).
    public let declared: Int64
    /// The bytes it brought (counted up to the first one past `declared`).
    public let counted: Int64
}
