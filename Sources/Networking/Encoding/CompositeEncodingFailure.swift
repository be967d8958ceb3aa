/// Why a `.requestCompositeParameters` task cannot be built.
public enum CompositeEncodingFailure: Error, Sendable, Equatable {
    /// A `URLEncoding` body encoding must be `.httpBody` (the URL parameters own the query string).
    case bodyEncodingMustTargetBody
}
