import Locking
import Synchronization

/// The shared state behind `multicast`, `publish`, `replay`, `refCount` and `share`.
///
/// A generation is one subject with its subscriber count and connection. `connect()` and the
/// first counted subscriber connect the current generation; a terminal event from the source,
/// disposing the connection, or the last counted subscriber leaving retires it, so the next
/// subscriber starts a new generation (with a new subject from `makeSubject`, or the same one
/// for `multicast(_ subject:)`). A subscriber always joins a generation and its subject together,
/// under the lock, so it cannot end up on a subject that no connection will feed.
///
/// No lock is held while making a subject, subscribing, connecting or disposing.
// @unchecked: `unsafeCurrent` and every generation's `count` and `connection` are guarded by `lock`.
final class Multicaster<Subject: SubjectType>: @unchecked Sendable {
    typealias Input = Subject.Observer.Element
    typealias Output = Subject.Element

    /// One subject, its counted subscribers and its connection.
    // @unchecked: `count` and `connection` are guarded by the multicaster's lock; the rest is immutable.
    final class Generation: @unchecked Sendable {
        let subject: Subject
        let observer: AnyObserver<Input>
        var count = 0
        var connection: MulticastConnection<Subject>?

        init(subject: Subject) {
            self.subject = subject
            observer = AnyObserver(subject.asObserver())
        }
    }

    let source: Observable<Input>
    let makeSubject: @Sendable () -> Subject
    private let lock = Lock(())
    private var unsafeCurrent: Generation?

    init(source: Observable<Input>, makeSubject: @escaping @Sendable () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// Runs `body` under the lock with the current generation, made first (outside the lock,
    /// since `makeSubject` is the caller's code) when there is none.
    private func withCurrent<Result>(_ body: (Generation) -> Result) -> Result {
        var fresh: Generation?
        while true {
            let result: Result? = lock.withLock { _ in
                if let current = unsafeCurrent { return body(current) }
                guard let fresh else { return nil }
                unsafeCurrent = fresh
                return body(fresh)
            }
            if let result { return result }
            fresh = Generation(subject: makeSubject())
        }
    }

    /// Subscribes `observer` to the current subject, without counting or connecting. A subscriber
    /// that joined after the last connection ended (the source completed during `connect()`) waits
    /// on a subject nothing feeds: as in RxSwift it gets no event, and it is let go with that
    /// subject (see `SubjectCore.subjectReleased()`, called by the subject's `deinit`).
    func subscribe(_ observer: AnyObserver<Output>) -> any Disposable {
        withCurrent { $0 }.subject.subscribe(observer)
    }

    /// Connects the current generation, or returns its connection when it has one.
    func connect() -> any Disposable {
        let (connection, isNew) = withCurrent { generation -> (MulticastConnection<Subject>, Bool) in
            if let connection = generation.connection { return (connection, false) }
            let connection = MulticastConnection(multicaster: self, generation: generation)
            generation.connection = connection
            return (connection, true)
        }
        if isNew { connection.start(source) }
        return connection
    }

    /// `refCount()`'s subscription: joins and counts in the current generation, subscribes to
    /// its subject, and connects it when this is its first counted subscriber.
    func subscribeCounted(_ observer: AnyObserver<Output>) -> any Disposable {
        let (generation, mustConnect) = withCurrent { generation -> (Generation, Bool) in
            generation.count += 1
            return (generation, generation.count == 1 && generation.connection == nil)
        }
        let sink = RefCountSink(downstream: observer, multicaster: self, generation: generation)
        sink.upstream.set(generation.subject.subscribe(AnyObserver { sink.on($0) }))
        if mustConnect { connectIfStillCounted(generation) }
        return sink
    }

    /// Connects `generation` unless it was retired, or connected, since its first subscriber came.
    private func connectIfStillCounted(_ generation: Generation) {
        let connection: MulticastConnection<Subject>? = lock.withLock { _ in
            guard unsafeCurrent === generation, generation.count > 0, generation.connection == nil else { return nil }
            let connection = MulticastConnection(multicaster: self, generation: generation)
            generation.connection = connection
            return connection
        }
        connection?.start(source)
    }

    /// A counted subscriber left (disposed, or got its terminal event): the last one of the
    /// current generation retires it and disposes its connection.
    func release(_ generation: Generation) {
        let connection: MulticastConnection<Subject>? = lock.withLock { _ in
            generation.count -= 1
            guard generation.count == 0, unsafeCurrent === generation else { return nil }
            unsafeCurrent = nil
            defer { generation.connection = nil }
            return generation.connection
        }
        connection?.dispose()
    }

    /// A connection ended (disposed or terminated): its generation is retired if still current,
    /// and lets go of it (the two refer to each other until then).
    func retire(_ generation: Generation, connection: MulticastConnection<Subject>) {
        lock.withLock { _ in
            guard generation.connection === connection else { return }
            generation.connection = nil
            if unsafeCurrent === generation { unsafeCurrent = nil }
        }
    }
}
