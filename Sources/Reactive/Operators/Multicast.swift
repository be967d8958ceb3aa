extension ObservableType {
    /// A connectable observable that, once connected, sends this sequence's events into
    /// `subject`, which its subscribers observe. The same subject serves every connection.
    ///
    /// ```swift
    /// let connectable = source.multicast(ReplaySubject<Int>.create(bufferSize: 1))
    /// ```
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
        where Subject.Observer.Element == Element {
        ConnectableObservable(Multicaster(source: asObservable(), makeSubject: { subject }))
    }

    /// A connectable observable that sends this sequence's events into a subject made by
    /// `makeSubject`; each connection gets a new subject once the previous one ended (the source
    /// terminated or the connection was disposed).
    ///
    /// ```swift
    /// let shared = source.multicast(makeSubject: { PublishSubject<Int>() }).refCount()
    /// ```
    public func multicast<Subject: SubjectType>(
        makeSubject: @escaping @Sendable () -> Subject
    ) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservable(Multicaster(source: asObservable(), makeSubject: makeSubject))
    }

    /// A connectable observable sharing one subscription to this sequence through a
    /// `PublishSubject`: subscribers get the events sent after they subscribed.
    ///
    /// ```swift
    /// let published = source.publish()
    /// published.subscribe(onNext: { print($0) }).disposed(by: bag)
    /// published.connect().disposed(by: bag)
    /// ```
    public func publish() -> ConnectableObservable<Element> {
        ConnectableObservable(Multicaster(source: asObservable(), makeSubject: { PublishSubject<Element>() }))
    }

    /// A connectable observable sharing one subscription to this sequence through a
    /// `ReplaySubject`: a subscriber first gets the last `bufferSize` elements.
    ///
    /// ```swift
    /// let replayed = source.replay(1)
    /// replayed.connect().disposed(by: bag)
    /// ```
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        ConnectableObservable(Multicaster(
            source: asObservable(), makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize) }
        ))
    }

    /// Like `replay(_:)`, replaying every element.
    public func replayAll() -> ConnectableObservable<Element> {
        ConnectableObservable(Multicaster(
            source: asObservable(), makeSubject: { ReplaySubject<Element>.createUnbounded() }
        ))
    }
}
