import Reactive

/// m: what a request pipeline in a client module costs: `flatMap` into a `zip` of two sources,
/// `retry`, `observe(on:)`, built, subscribed and disposed per cycle, all compiled in this module
/// (so it runs whatever the operators let a client specialize or inline). `observe(on:)` uses
/// the immediate scheduler so the row times the operators, not a thread hop. The baseline calls
/// the same closures in plain Swift, with the state a subscription needs allocated.
enum ClientPipelineBenchmarks {
    private struct Failure: Error {}

    /// A plain stand-in for a subscription's state.
    private final class Answer {
        var value = 0
        var done = false
    }

    static func run(_ context: BenchmarkContext) {
        let cycles = context.size(100_000)
        context.compare("m.flatmap-zip-retry-observe", operations: cycles,
                        baselineName: "allocate and call the same closures",
                        ours: { pipeline(cycles) }, baseline: { closures(cycles) })
    }

    static func pipeline(_ cycles: Int) -> Int {
        let tally = Tally()
        let scheduler = ImmediateScheduler.instance
        for cycle in 0..<cycles {
            Observable.just(cycle)
                .flatMap { id in Observable.zip(Observable.just(id), Observable.just(id &+ 1)) { $0 &+ $1 } }
                .retry(2)
                .observe(on: scheduler)
                .subscribe(onNext: { tally.add($0) })
                .dispose()
        }
        return tally.value
    }

    static func closures(_ cycles: Int) -> Int {
        let tally = Tally()
        for cycle in 0..<cycles {
            let answer = Answer()
            let first: (Int) -> Int = opaque { $0 }
            let second: (Int) -> Int = opaque { $0 &+ 1 }
            let combine: (Int, Int) -> Int = opaque { $0 &+ $1 }
            let attempt: (Int) throws -> Int = opaque { id in combine(first(id), second(id)) }
            let deliver: (Int) -> Void = opaque { tally.add($0) }
            for _ in 0..<2 where !answer.done {
                guard let value = try? attempt(cycle) else { continue }
                answer.value = value
                answer.done = true
            }
            deliver(answer.value)
        }
        return tally.value
    }
}
