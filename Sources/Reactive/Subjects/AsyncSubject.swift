import Locking

/// Emits only the last element it is sent, and only when it completes (RxSwift's
/// `AsyncSubject`): an observer gets that element then the completion, or the error alone;
/// one subscribing after the end gets the same.
///
/// ```swift
/// let result = AsyncSubject<Int>()
/// result.subscribe(onNext: { print($0) })
/// result.onNext(1); result.onNext(2); result.onCompleted()   // prints 2
/// ```
// @unchecked: `unsafeState` is guarded by the Lock `lock`; observers are called outside it.
public final class AsyncSubject<Element>: SubjectType, ObserverType, @unchecked Sendable {
    private struct State {
        var observers: [Int: AnyObserver<Element>] = [:]
        var nextID = 0
        var last: Element?
        var stopEvent: Event<Element>?
    }

    private let lock = Lock(())
    private var unsafeState = State()

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { _ in body(&unsafeState) }
    }

    /// A subject with no observers.
    public init() {}

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { withState { !$0.observers.isEmpty } }

    /// Remembers an element; on the terminal event, sends the last one (for a completion)
    /// and the terminal event to every observer.
    public func on(_ event: Event<Element>) {
        let delivery: ([AnyObserver<Element>], Element?, Event<Element>)? = withState { state in
            guard state.stopEvent == nil else { return nil }
            switch event {
            case .next(let element):
                state.last = element
                return nil
            case .error:
                state.last = nil
                fallthrough
            case .completed:
                state.stopEvent = event
                let observers = state.observers.sorted { $0.key < $1.key }.map(\.value)
                state.observers = [:]
                return (observers, state.last, event)
            }
        }
        guard let (observers, last, stop) = delivery else { return }
        for observer in observers {
            if let last { observer.on(.next(last)) }
            observer.on(stop)
        }
    }

    /// Adds an observer; after the end, it gets the last element and the terminal event at once.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        let observer = AnyObserver(observer)
        let registered: (id: Int?, last: Element?, stop: Event<Element>?) = withState { state in
            if let stop = state.stopEvent { return (nil, state.last, stop) }
            let id = state.nextID
            state.nextID += 1
            state.observers[id] = observer
            return (id, nil, nil)
        }
        guard let id = registered.id else {
            if let last = registered.last { observer.on(.next(last)) }
            if let stop = registered.stop { observer.on(stop) }
            return Disposables.create()
        }
        return Disposables.create { [weak self] in
            _ = self?.withState { $0.observers.removeValue(forKey: id) }
        }
    }

    /// This subject as an observable only.
    public func asObservable() -> Observable<Element> {
        Observable { observer in self.subscribe(observer) }
    }

    /// This subject as an observer.
    public func asObserver() -> AsyncSubject<Element> { self }
}
