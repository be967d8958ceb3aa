extension ObservableType where Element: Equatable {
    /// Drops elements equal to the one before.
    ///
    /// ```swift
    /// Observable.of(1, 1, 2, 1).distinctUntilChanged()   // 1, 2, 1
    /// ```
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged { $0 == $1 }
    }
}

extension ObservableType {
    /// Drops elements whose key equals the previous element's key.
    public func distinctUntilChanged<Key: Equatable & SendableMetatype>(
        _ key: @escaping @Sendable (Element) throws -> Key
    ) -> Observable<Element> {
        distinctUntilChanged { try key($0) == key($1) }
    }

    /// Drops elements whose key `comparer` says equals the previous element's key; a throw of
    /// either closure ends the sequence.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping @Sendable (Element) throws -> Key,
        comparer: @escaping @Sendable (Key, Key) throws -> Bool
    ) -> Observable<Element> {
        distinctUntilChanged { try comparer(keySelector($0), keySelector($1)) }
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    ///
    /// ```swift
    /// users.distinctUntilChanged(at: \.name)
    /// ```
    public func distinctUntilChanged<Property: Equatable & SendableMetatype>(
        at keyPath: KeyPath<Element, Property> & Sendable
    ) -> Observable<Element> {
        distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }

    /// Drops elements that `areEqual` says equal the one before; a throw ends the sequence.
    public func distinctUntilChanged(
        _ areEqual: @escaping @Sendable (Element, Element) throws -> Bool
    ) -> Observable<Element> {
        return lift { DistinctUntilChangedSink(downstream: $0, areEqual: areEqual) }
    }
}

// @unchecked: `previous` is touched only on the serialized event path.
final class DistinctUntilChangedSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private var previous: Element?
    private let areEqual: @Sendable (Element, Element) throws -> Bool

    init(downstream: AnyObserver<Element>, areEqual: @escaping @Sendable (Element, Element) throws -> Bool) {
        self.areEqual = areEqual
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            do {
                if let previous, try areEqual(previous, element) { return }
                previous = element
                downstream.on(.next(element))
            } catch {
                stop(with: .error(error))
            }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
