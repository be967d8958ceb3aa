/// An error type outside Foundation that can say it is a timeout (for example a reactive
/// `timeout` operator's error); `isTimeout` and `APIError` classification honour it.
public protocol TimeoutClassifiable: Error {
    /// Whether this error means "took too long".
    var representsTimeout: Bool { get }
}
