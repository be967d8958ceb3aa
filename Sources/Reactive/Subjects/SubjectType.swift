/// Something that is both an observable sequence and an observer feeding it: the subjects.
/// `multicast` takes one to share a source through.
///
/// ```swift
/// let connectable = source.multicast(ReplaySubject<Int>.create(bufferSize: 2))
/// ```
public protocol SubjectType<Element>: ObservableType {
    /// The observer side's type.
    associatedtype Observer: ObserverType

    /// The observer side, which sends events to the subject's observers.
    func asObserver() -> Observer
}
