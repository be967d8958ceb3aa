import Reactive

/// c: one Single chain built, subscribed and disposed per cycle.
enum SingleBenchmarks {
    private struct Failure: Error {}

    /// A plain stand-in for a subscription's state: answered once.
    private final class Answer {
        var done = false
    }

    static func run(_ context: BenchmarkContext) {
        let cycles = context.size(200_000)
        context.compare("c.single-chain", operations: cycles, baselineName: "allocate and call the same closures",
                        ours: { chain(cycles) }, baseline: { closures(cycles) })
    }

    private static func chain(_ cycles: Int) -> Int {
        let tally = Tally()
        for cycle in 0..<cycles {
            Single<Int>.create { observer in
                observer(.success(cycle))
                return Disposables.create()
            }
            .map { $0 &+ 1 }
            .catch { _ in .just(0) }
            .do(onSuccess: { tally.add($0) })
            .subscribe(onSuccess: { tally.add($0) })
            .dispose()
        }
        return tally.value
    }

    private static func closures(_ cycles: Int) -> Int {
        let tally = Tally()
        for cycle in 0..<cycles {
            let answer = Answer()
            let create: (@escaping (Result<Int, any Error>) -> Void) -> Void = opaque { deliver in deliver(.success(cycle)) }
            let transform: (Int) -> Int = opaque { $0 &+ 1 }
            let recover: (any Error) -> Int = opaque { _ in 0 }
            let effect: (Int) -> Void = opaque { tally.add($0) }
            let onSuccess: (Int) -> Void = opaque { tally.add($0) }
            create { result in
                guard !answer.done else { return }
                answer.done = true
                let value: Int
                switch result.map(transform) {
                case .success(let element): value = element
                case .failure(let error): value = recover(error)
                }
                effect(value)
                onSuccess(value)
            }
        }
        return tally.value
    }
}
