/// How long `share(replay:scope:)` keeps its subject, and so its replay buffer.
///
/// ```swift
/// let settings = load().share(replay: 1, scope: .forever)
/// ```
public enum SubjectLifetimeScope: Sendable {
    /// Each connection gets a new subject: once every subscriber has left, or the source has
    /// ended, the next subscriber starts afresh with a new subscription to the source.
    /// `source.multicast(makeSubject: { ReplaySubject.create(bufferSize: replay) }).refCount()`.
    case whileConnected
    /// One subject for every connection: a new connection's subscribers get what the previous
    /// one left in the buffer, and after the source ended every new subscriber gets the buffer
    /// and the terminal event at once, without subscribing to the source again.
    /// `source.multicast(ReplaySubject.create(bufferSize: replay)).refCount()`.
    case forever
}
