import Reactive

/// `map` as a stage of the `StagedObservable` prototype: its type names its upstream.
struct StagedMap<Upstream: StagedObservable, Result>: StagedObservable {
    typealias Element = Result
    let upstream: Upstream
    let transform: @Sendable (Upstream.Element) throws -> Result

    func subscribe<Downstream: ObserverType & Sendable>(staged downstream: Downstream) -> any Disposable
        where Downstream.Element == Result {
        upstream.subscribe(staged: StagedMapSink(downstream: downstream, transform: transform))
    }
}

/// Applies the transform and calls the next stage directly; drops everything after a terminal event.
// @unchecked: `isStopped` is touched only on the serialized event path; the rest is immutable.
final class StagedMapSink<Source, Downstream: ObserverType & Sendable>: ObserverType, @unchecked Sendable {
    let downstream: Downstream
    let transform: @Sendable (Source) throws -> Downstream.Element
    private var isStopped = false

    init(downstream: Downstream, transform: @escaping @Sendable (Source) throws -> Downstream.Element) {
        self.downstream = downstream
        self.transform = transform
    }

    @inline(__always)
    func on(_ event: Event<Source>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            do {
                downstream.on(.next(try transform(element)))
            } catch {
                isStopped = true
                downstream.on(.error(error))
            }
        case .error(let error):
            isStopped = true
            downstream.on(.error(error))
        case .completed:
            isStopped = true
            downstream.on(.completed)
        }
    }
}
