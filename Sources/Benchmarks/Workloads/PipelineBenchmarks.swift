import Reactive

/// a and a2: map -> filter -> map -> sum over 1M integers.
enum PipelineBenchmarks {
    /// The stages, built behind `opaque` so neither side can inline them.
    struct Stages: Sendable {
        let first: @Sendable (Int) -> Int
        let keep: @Sendable (Int) -> Bool
        let second: @Sendable (Int) -> Int

        static func make() -> Stages {
            opaque(Stages(first: { $0 &* 3 }, keep: { $0 & 1 == 0 }, second: { $0 &+ 1 }))
        }
    }

    static func run(_ context: BenchmarkContext) {
        let count = context.size(1_000_000)
        let stages = Stages.make()
        let elements = Array(0..<count)

        context.compare("a.map-filter-map", operations: count, baselineName: "for loop, same closures",
                        ours: { viaCreate(count, stages) }, baseline: { loop(0..<count, stages) })
        context.compare("a2.from-array", operations: count, baselineName: "for loop over the array",
                        ours: { viaObservable(Observable.from(elements), stages) }, baseline: { loop(elements, stages) })
        context.compare("a2.range", operations: count, baselineName: "for loop over the range",
                        ours: { viaObservable(Observable.range(start: 0, count: count), stages) },
                        baseline: { loop(0..<count, stages) })
        // The same three pipelines through the `StagedObservable` prototype (operators returning
        // their own types), to show what a and a2 would cost with that public API change.
        context.compare("a.staged-prototype", operations: count, baselineName: "for loop, same closures",
                        ours: { viaStages(StagedCreate.create(emitting(count)), stages) }, baseline: { loop(0..<count, stages) })
        context.compare("a2.from-array.staged-prototype", operations: count, baselineName: "for loop over the array",
                        ours: { viaStages(Observable.from(elements), stages) }, baseline: { loop(elements, stages) })
        context.compare("a2.range.staged-prototype", operations: count, baselineName: "for loop over the range",
                        ours: { viaStages(Observable.range(start: 0, count: count), stages) },
                        baseline: { loop(0..<count, stages) })
    }

    private static func viaCreate(_ count: Int, _ stages: Stages) -> Int {
        viaObservable(Observable.create(emitting(count)), stages)
    }

    /// The body of a's `create` source: `count` elements, then completed.
    private static func emitting(_ count: Int) -> @Sendable (AnyObserver<Int>) -> any Disposable {
        { observer in
            for element in 0..<count { observer.onNext(element) }
            observer.onCompleted()
            return Disposables.create()
        }
    }

    static func viaObservable(_ source: Observable<Int>, _ stages: Stages) -> Int {
        let tally = Tally()
        source.map(stages.first).filter(stages.keep).map(stages.second)
            .subscribe(onNext: { tally.add($0) })
            .dispose()
        return tally.value
    }

    static func viaStages(_ source: Observable<Int>, _ stages: Stages) -> Int {
        viaStages(source.staged, stages)
    }

    static func viaStages<Source: StagedObservable<Int>>(_ source: Source, _ stages: Stages) -> Int {
        let tally = Tally()
        source.map(stages.first).filter(stages.keep).map(stages.second)
            .subscribe(onNext: { tally.add($0) })
            .dispose()
        return tally.value
    }

    private static func loop<S: Sequence<Int>>(_ source: S, _ stages: Stages) -> Int {
        let tally = Tally()
        let sink: (Int) -> Void = opaque { tally.add($0) }
        for element in source {
            let value = stages.first(element)
            if stages.keep(value) { sink(stages.second(value)) }
        }
        return tally.value
    }
}
