/// Which deadline a `TransportError.timedOut` missed.
public enum TimeoutPhase: String, Sendable, Hashable {
    /// Opening the TCP connection took longer than the connect timeout.
    case connect
    /// The peer sent or took nothing for longer than the idle timeout.
    case idle
    /// The whole exchange (waiting, redirects and all) outlasted the overall deadline.
    case overall
}
