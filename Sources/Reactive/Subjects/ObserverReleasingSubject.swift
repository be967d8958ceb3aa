/// A subject whose observers can be dropped without an event once nothing can feed it; see
/// `SubjectCore.releaseObservers()`. `publish()` and `replay(_:)` use it for a subscriber that
/// joined a subject no connection will ever feed, when their connectable goes away.
protocol ObserverReleasingSubject {
    /// Drops every observer without an event.
    func releaseObservers()
}

extension PublishSubject: ObserverReleasingSubject {
    func releaseObservers() { core.releaseObservers() }
}

extension ReplaySubject: ObserverReleasingSubject {
    func releaseObservers() { core.releaseObservers() }
}
