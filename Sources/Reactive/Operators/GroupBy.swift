import Synchronization

/// The elements of one group of `groupBy`, with the `key` they share.
///
/// ```swift
/// words.groupBy { $0.first }.flatMap { group in group.map { "\(group.key): \($0)" } }
/// ```
public struct GroupedObservable<Key: Sendable, Element>: ObservableType {
    /// The key every element of this group has.
    public let key: Key
    private let source: Observable<Element>

    /// A group with `key` whose elements come from `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group's elements as an observable.
    public func asObservable() -> Observable<Element> { source }
}

extension ObservableType {
    /// Splits the elements into groups by `keySelector`: a group is emitted when its key first
    /// appears, just before its first element. The source's completion or error ends every
    /// group and the result; a throwing `keySelector` fails them all.
    ///
    /// As in RxSwift, a group still subscribed keeps the source running after the outer
    /// subscription is disposed.
    /// ```swift
    /// Observable.of(1, 2, 3, 4).groupBy { $0.isMultiple(of: 2) }
    /// ```
    public func groupBy<Key: Hashable & Sendable>(
        keySelector: @escaping @Sendable (Element) throws -> Key
    ) -> Observable<GroupedObservable<Key, Element>> {
        let source = asObservable()
        return Observable { observer in
            let sink = GroupBySink(downstream: observer, keySelector: keySelector)
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            return sink
        }
    }
}

// @unchecked: `groups` is touched only on the serialized event path; `outerDisposed` is atomic;
// `refCount` is set in `init` and never changed.
final class GroupBySink<Key: Hashable & Sendable, Element>: Sink<GroupedObservable<Key, Element>>, @unchecked Sendable {
    private let keySelector: @Sendable (Element) throws -> Key
    private let outerDisposed = Atomic<Bool>(false)
    private var refCount: RefCountDisposable?
    private var groups: [Key: PublishSubject<Element>] = [:]

    init(downstream: AnyObserver<GroupedObservable<Key, Element>>, keySelector: @escaping @Sendable (Element) throws -> Key) {
        self.keySelector = keySelector
        super.init(downstream: downstream)
        refCount = RefCountDisposable(Disposables.create { self.upstream.dispose() })
    }

    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try keySelector(element)
            } catch {
                finish(.error(error))
                return
            }
            group(for: key).onNext(element)
        case .error(let error): finish(.error(error))
        case .completed: finish(.completed)
        }
    }

    private func group(for key: Key) -> PublishSubject<Element> {
        if let existing = groups[key] { return existing }
        let subject = PublishSubject<Element>()
        groups[key] = subject
        if !outerDisposed.load(ordering: .acquiring), let refCount {
            let source = Observable<Element> { observer in
                let reference = refCount.retain()
                return Disposables.create(subject.subscribe(observer), reference)
            }
            downstream.on(.next(GroupedObservable(key: key, source: source)))
        }
        return subject
    }

    private func finish(_ terminal: EmissionGate.Terminal) {
        isStopped = true
        let all = groups.values
        groups = [:]
        for group in all { group.on(terminal.event()) }
        if !outerDisposed.load(ordering: .acquiring) { downstream.on(terminal.event()) }
        dispose()
        upstream.dispose()
    }

    /// Disposes the outer subscription: no more groups go downstream, and the source stops
    /// once no group is subscribed.
    override func dispose() {
        outerDisposed.store(true, ordering: .releasing)
        refCount?.dispose()
    }
}
