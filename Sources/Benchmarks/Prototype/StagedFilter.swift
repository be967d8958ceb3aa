import Reactive

/// `filter` as a stage of the `StagedObservable` prototype: its type names its upstream.
struct StagedFilter<Upstream: StagedObservable>: StagedObservable {
    typealias Element = Upstream.Element
    let upstream: Upstream
    let predicate: @Sendable (Element) throws -> Bool

    func subscribe<Downstream: ObserverType & Sendable>(staged downstream: Downstream) -> any Disposable
        where Downstream.Element == Element {
        upstream.subscribe(staged: StagedFilterSink(downstream: downstream, predicate: predicate))
    }
}

/// Tests each element and calls the next stage directly; drops everything after a terminal event.
// @unchecked: `isStopped` is touched only on the serialized event path; the rest is immutable.
final class StagedFilterSink<Downstream: ObserverType & Sendable>: ObserverType, @unchecked Sendable {
    let downstream: Downstream
    let predicate: @Sendable (Downstream.Element) throws -> Bool
    private var isStopped = false

    init(downstream: Downstream, predicate: @escaping @Sendable (Downstream.Element) throws -> Bool) {
        self.downstream = downstream
        self.predicate = predicate
    }

    @inline(__always)
    func on(_ event: Event<Downstream.Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            do {
                if try predicate(element) { downstream.on(event) }
            } catch {
                isStopped = true
                downstream.on(.error(error))
            }
        case .error, .completed:
            isStopped = true
            downstream.on(event)
        }
    }
}
