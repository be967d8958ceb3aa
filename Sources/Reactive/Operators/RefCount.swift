import Locking
import Synchronization

extension ConnectableObservableType {
    /// An observable that connects this one when its first subscriber arrives and disconnects
    /// when the last one leaves or the source ends; a later subscriber connects again.
    ///
    /// ```swift
    /// let shared = source.publish().refCount()
    /// ```
    public func refCount() -> Observable<Element> {
        if let own = self as? ConnectableObservable<Element> { return own.refCount() }
        let counter = ConnectionCounter(source: self)
        return Observable { observer in counter.subscribe(observer) }
    }
}

/// `refCount()` over a connectable observable of another kind than `ConnectableObservable`:
/// RxSwift's algorithm, with `connect()` and disconnection outside the lock.
// @unchecked: `unsafeState` and every sink's `joined`/`finished` are guarded by `lock`.
final class ConnectionCounter<Source: ConnectableObservableType>: @unchecked Sendable {
    struct State {
        var count = 0
        /// Changes whenever the count drops to zero, so a stale subscriber cannot touch a new connection.
        var connectionID = 0
        var connection: (any Disposable)?
    }

    let source: Source
    private let lock = Lock(())
    private var unsafeState = State()

    init(source: Source) {
        self.source = source
    }

    func subscribe(_ observer: AnyObserver<Source.Element>) -> any Disposable {
        let sink = ConnectionCounterSink(downstream: observer, counter: self)
        sink.upstream.set(source.subscribe(AnyObserver { sink.on($0) }))
        let connectionID: Int? = lock.withLock { _ in
            guard !sink.finished else { return nil }
            unsafeState.count += 1
            sink.joined = unsafeState.connectionID
            return unsafeState.count == 1 ? unsafeState.connectionID : nil
        }
        guard let connectionID else { return sink }
        let connection = source.connect()
        let kept: Bool = lock.withLock { _ in
            guard unsafeState.connectionID == connectionID, unsafeState.count > 0 else { return false }
            unsafeState.connection = connection
            return true
        }
        if !kept { connection.dispose() }
        return sink
    }

    /// A counted subscriber left; `ending` drops the count to zero at once (the source ended).
    func leave(_ sink: ConnectionCounterSink<Source>, ending: Bool) {
        let connection: (any Disposable)? = lock.withLock { _ in
            sink.finished = true
            guard let joined = sink.joined, joined == unsafeState.connectionID else { return nil }
            sink.joined = nil
            unsafeState.count = ending ? 0 : unsafeState.count - 1
            guard unsafeState.count == 0 else { return nil }
            unsafeState.connectionID &+= 1
            defer { unsafeState.connection = nil }
            return unsafeState.connection
        }
        connection?.dispose()
    }
}

/// One subscriber of a `ConnectionCounter`.
// @unchecked: `joined` and `finished` are guarded by the counter's lock; `isStopped` is on the event path.
final class ConnectionCounterSink<Source: ConnectableObservableType>: Sink<Source.Element>, @unchecked Sendable {
    let counter: ConnectionCounter<Source>
    var joined: Int?
    var finished = false

    init(downstream: AnyObserver<Source.Element>, counter: ConnectionCounter<Source>) {
        self.counter = counter
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Source.Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .error, .completed:
            guard !isStopped else { return }
            isStopped = true
            counter.leave(self, ending: true)
            forwardTerminal(event)
        }
    }

    override func dispose() {
        super.dispose()
        counter.leave(self, ending: false)
    }
}

/// A `refCount()` subscriber: forwards the subject's events and releases its count once.
// @unchecked: `released` is atomic; `isStopped` is on the serialized event path.
final class RefCountSink<Subject: SubjectType>: Sink<Subject.Element>, @unchecked Sendable {
    let multicaster: Multicaster<Subject>
    let generation: Multicaster<Subject>.Generation
    private let released = Atomic<Bool>(false)

    init(downstream: AnyObserver<Subject.Element>, multicaster: Multicaster<Subject>,
         generation: Multicaster<Subject>.Generation) {
        self.multicaster = multicaster
        self.generation = generation
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Subject.Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .error, .completed:
            guard !isStopped else { return }
            isStopped = true
            releaseOnce()
            forwardTerminal(event)
        }
    }

    private func releaseOnce() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        multicaster.release(generation)
    }

    override func dispose() {
        super.dispose()
        releaseOnce()
    }
}
