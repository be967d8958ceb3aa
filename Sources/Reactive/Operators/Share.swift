extension ObservableType {
    /// Shares one subscription to this sequence among all subscribers while at least one is
    /// subscribed; a subscriber first gets the last `replay` elements.
    ///
    /// The connection lives while it has subscribers, whoever holds the returned observable:
    /// `func load() -> Observable<T> { request.share(replay: 1) }` is fine. `scope` says whether
    /// the replay buffer outlives a connection (see `SubjectLifetimeScope`).
    ///
    /// ```swift
    /// let shared = request.share(replay: 1)
    /// ```
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        switch scope {
        case .whileConnected:
            return multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: replay) }).refCount()
        case .forever:
            return multicast(ReplaySubject<Element>.create(bufferSize: replay)).refCount()
        }
    }
}
