import Reactive
import Synchronization

/// `Observable.create` as the first stage of the `StagedObservable` prototype: the caller's
/// observer calls the chain's first sink directly, with no `Observable` hop in between. Unlike
/// `Observable.create` it does not run on the thread's trampoline (a prototype's shortcut:
/// nothing here nests subscriptions).
struct StagedCreate<Element>: StagedObservable {
    let subscribe: @Sendable (AnyObserver<Element>) -> any Disposable

    func subscribe<Downstream: ObserverType & Sendable>(staged downstream: Downstream) -> any Disposable
        where Downstream.Element == Element {
        let sink = StagedCreateSink(downstream: downstream)
        sink.attach(subscribe(AnyObserver { sink.on($0) }))
        return sink
    }
}

/// Forwards the caller's events until the first terminal one or `dispose()`, which also ends
/// what the caller's closure returned.
// @unchecked: `stopped` is atomic and `upstream` a thread-safe disposable; `downstream` is immutable.
final class StagedCreateSink<Downstream: ObserverType & Sendable>: Disposable, @unchecked Sendable {
    let downstream: Downstream
    private let upstream = SingleAssignmentDisposable()
    private let stopped = Atomic<Bool>(false)

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    func attach(_ subscription: any Disposable) {
        upstream.setDisposable(subscription)
    }

    @inline(__always)
    func on(_ event: Event<Downstream.Element>) {
        switch event {
        case .next:
            guard !stopped.load(ordering: .relaxed) else { return }
            downstream.on(event)
        case .error, .completed:
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            downstream.on(event)
            upstream.dispose()
        }
    }

    func dispose() {
        stopped.store(true, ordering: .releasing)
        upstream.dispose()
    }
}

extension StagedCreate {
    /// The prototype's `Observable.create`.
    static func create(_ subscribe: @escaping @Sendable (AnyObserver<Element>) -> any Disposable) -> StagedCreate {
        StagedCreate(subscribe: subscribe)
    }
}
