/// The engine shared by every `zip` (a queue per source) and `combineLatest` (the latest
/// element per source), for collections and for 2 or more typed sources alike: the typed forms
/// erase their sources to `Any` and rebuild the types in their result selector.
enum ZipLatestCore {
    enum Mode {
        /// Pairs by index; completes when every source has completed.
        case zip
        /// As `zip`, and also completes when an element arrives that can never be paired
        /// because every other source has completed (RxSwift's collection `zip`).
        case zipCollection
        /// Combines the latest elements.
        case combineLatest
    }

    static func observable<Input, Result>(
        _ mode: Mode, _ sources: [Observable<Input>], combine: @escaping @Sendable ([Input]) throws -> Result
    ) -> Observable<Result> {
        Observable { observer in
            let sink = ZipLatestSink(downstream: observer, mode: mode, arity: sources.count, combine: combine)
            sink.run(sources)
            return sink
        }
    }

    /// A typed value back from the `Any` that a typed form erased it to; the types match by
    /// construction, since each slot only ever holds what its own source emitted.
    static func typed<Value>(_ values: [Any], _ index: inout Int, as type: Value.Type) -> Value {
        defer { index += 1 }
        // The slot at `index` was filled from the source whose element type is `Value`.
        return values[index] as! Value
    }

    /// `source`'s elements erased to `Any`, for the typed forms.
    static func erase<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Any> {
        source.asObservable().map { $0 as Any }
    }
}

/// State changes under `state`'s lock; results go downstream through the `Outbox`, with the
/// result selector and the observer called outside the lock.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out.
final class ZipLatestSink<Input, Result>: Sink<Result>, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Result>()
        var queues: [[Input]]
        var heads: [Int]
        var latest: [Input?]
        var done: [Bool]
        var stopped = false
    }

    /// What an upstream event decided, carried out after the lock is released.
    private enum Step {
        case none
        case combine([Input])
        case end(Event<Result>)
    }

    private let mode: ZipLatestCore.Mode
    private let combine: @Sendable ([Input]) throws -> Result
    private let state: LockedState<State>
    private let subscriptions: [SingleAssignmentDisposable]

    init(
        downstream: AnyObserver<Result>, mode: ZipLatestCore.Mode, arity: Int,
        combine: @escaping @Sendable ([Input]) throws -> Result
    ) {
        self.mode = mode
        self.combine = combine
        state = LockedState(State(
            queues: Array(repeating: [], count: arity), heads: Array(repeating: 0, count: arity),
            latest: Array(repeating: nil, count: arity), done: Array(repeating: false, count: arity)
        ))
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(downstream: downstream)
    }

    func run(_ sources: [Observable<Input>]) {
        if sources.isEmpty {
            // RxSwift: combineLatest of nothing emits the result for no elements, then completes.
            if mode == .combineLatest { emit([]) }
            finish(.completed)
            return
        }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(handler: { self.on($0, index: index) }))
        }
    }

    private func on(_ event: Event<Input>, index: Int) {
        let step: Step = state.withLock { state in
            guard !state.stopped else { return .none }
            switch event {
            case .next(let value):
                return mode == .combineLatest
                    ? Self.latest(value, index: index, &state) : Self.zip(value, index: index, mode: mode, &state)
            case .error(let error):
                return .end(.error(error))
            case .completed:
                state.done[index] = true
                return state.done.contains(false) ? .none : .end(.completed)
            }
        }
        switch step {
        case .none:
            if case .completed = event { subscriptions[index].dispose() }
        case .combine(let values): emit(values)
        case .end(let event): finish(event)
        }
    }

    private static func zip(_ value: Input, index: Int, mode: ZipLatestCore.Mode, _ state: inout State) -> Step {
        state.queues[index].append(value)
        let ready = state.queues.indices.allSatisfy { state.heads[$0] < state.queues[$0].count }
        guard ready else {
            let othersDone = state.done.indices.allSatisfy { $0 == index || state.done[$0] }
            return mode == .zipCollection && othersDone ? .end(.completed) : .none
        }
        var values: [Input] = []
        values.reserveCapacity(state.queues.count)
        for position in state.queues.indices {
            values.append(state.queues[position][state.heads[position]])
            state.heads[position] += 1
            if state.heads[position] == state.queues[position].count {
                state.queues[position].removeAll(keepingCapacity: true)
                state.heads[position] = 0
            }
        }
        return .combine(values)
    }

    private static func latest(_ value: Input, index: Int, _ state: inout State) -> Step {
        state.latest[index] = value
        let values = state.latest.compactMap { $0 }
        if values.count == state.latest.count { return .combine(values) }
        let othersDone = state.done.indices.allSatisfy { $0 == index || state.done[$0] }
        return othersDone ? .end(.completed) : .none
    }

    /// Runs the result selector outside the lock, then queues its result in order.
    ///
    /// Results are computed in the order their inputs were decided as long as the sources emit
    /// serially with respect to each other; sources racing on several threads may have their
    /// results delivered in the order the selector finished.
    private func emit(_ values: [Input]) {
        let result: Result
        do {
            result = try combine(values)
        } catch {
            finish(.error(error))
            return
        }
        let first = state.withLock { state in state.stopped ? nil : state.outbox.push(.next(result)) }
        deliver(first)
    }

    private func finish(_ event: Event<Result>) {
        let first = state.withLock { state -> Event<Result>? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.outbox.push(event)
        }
        deliver(first)
    }

    private func deliver(_ first: Event<Result>?) {
        deliver(first) { state.withLock { $0.outbox.pop() } }
    }

    override func dispose() {
        state.withLock { $0.stopped = true }
        super.dispose()
        for subscription in subscriptions { subscription.dispose() }
    }
}
