/// How the connection under a message ended, as the transport below HTTP tells it: the end of a
/// body delimited by the connection's end counts only when the close was complete (RFC 9112 §9.8).
public enum HTTPStreamEnd: Sendable, Hashable {
    /// A complete close: plain TCP's end of stream, or TLS's after the peer's `close_notify`.
    case complete
    /// An incomplete close: TLS's stream ended without `close_notify`, so anyone on the path may
    /// have cut it; a body delimited by the close is then incomplete.
    case incomplete
}
