/// The engine shared by every `zip` (a queue per source) and `combineLatest` (the latest
/// element per source), for collections and for 2 or more typed sources alike: the typed forms
/// erase their sources to `Any` and rebuild the types in their result selector. It and its sink
/// are `@usableFromInline` with `@inlinable` bodies, so a client module specializes them.
@usableFromInline
enum ZipLatestCore {
    @usableFromInline
    enum Mode {
        /// Pairs by index; completes when every source has completed.
        case zip
        /// As `zip`, and also completes when an element arrives that can never be paired
        /// because every other source has completed (RxSwift's collection `zip`).
        case zipCollection
        /// Combines the latest elements.
        case combineLatest
    }

    @inlinable
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
    @inlinable
    static func typed<Value>(_ values: [Any], _ index: inout Int, as type: Value.Type) -> Value {
        defer { index += 1 }
        // The slot at `index` was filled from the source whose element type is `Value`.
        return values[index] as! Value
    }

    /// `source`'s elements erased to `Any`, for the typed forms.
    @inlinable
    static func erase<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Any> {
        source.asObservable().map { $0 as Any }
    }
}

/// State changes under `state`'s lock. Each decided set of inputs is queued in the `Outbox`
/// in the order it was decided; the delivering thread runs the result selector and the observer
/// outside the lock, one set at a time, so results keep their order even when the sources emit
/// on several threads.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out.
@usableFromInline
final class ZipLatestSink<Input, Result>: Sink<Result>, @unchecked Sendable {
    @usableFromInline
    struct State {
        /// `.next(inputs)` is a result still to compute; terminal events pass as they are.
        @usableFromInline var outbox = Outbox<[Input]>()
        @usableFromInline var queues: [[Input]]
        @usableFromInline var heads: [Int]
        @usableFromInline var latest: [Input?]
        @usableFromInline var done: [Bool]
        @usableFromInline var stopped = false

        @inlinable
        init(arity: Int) {
            queues = Array(repeating: [], count: arity)
            heads = Array(repeating: 0, count: arity)
            latest = Array(repeating: nil, count: arity)
            done = Array(repeating: false, count: arity)
        }
    }

    @usableFromInline let mode: ZipLatestCore.Mode
    @usableFromInline let combine: @Sendable ([Input]) throws -> Result
    @usableFromInline let state: LockedState<State>
    @usableFromInline let subscriptions: [SingleAssignmentDisposable]

    @inlinable
    init(
        downstream: AnyObserver<Result>, mode: ZipLatestCore.Mode, arity: Int,
        combine: @escaping @Sendable ([Input]) throws -> Result
    ) {
        self.mode = mode
        self.combine = combine
        state = LockedState(State(arity: arity))
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(downstream: downstream)
    }

    @inlinable
    func run(_ sources: [Observable<Input>]) {
        if sources.isEmpty {
            // RxSwift: combineLatest of nothing emits the result for no elements, then completes.
            deliver(state.withLock { state in
                let first = mode == .combineLatest ? state.outbox.push(.next([])) : nil
                state.stopped = true
                return state.outbox.push(.completed) ?? first
            })
            return
        }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(handler: { self.on($0, index: index) }))
        }
    }

    @inlinable
    func on(_ event: Event<Input>, index: Int) {
        let (first, sourceDone) = state.withLock { state -> (Event<[Input]>?, Bool) in
            guard !state.stopped else { return (nil, false) }
            let decided: Event<[Input]>?
            switch event {
            case .next(let value):
                decided = mode == .combineLatest
                    ? Self.latest(value, index: index, &state) : Self.zip(value, index: index, mode: mode, &state)
            case .error(let error):
                decided = .error(error)
            case .completed:
                state.done[index] = true
                decided = state.done.contains(false) ? nil : .completed
            }
            guard let decided else { return (nil, event.isStopEvent) }
            if decided.isStopEvent { state.stopped = true }
            return (state.outbox.push(decided), false)
        }
        if sourceDone { subscriptions[index].dispose() }
        deliver(first)
    }

    @inlinable
    static func zip(
        _ value: Input, index: Int, mode: ZipLatestCore.Mode, _ state: inout State
    ) -> Event<[Input]>? {
        state.queues[index].append(value)
        let ready = state.queues.indices.allSatisfy { state.heads[$0] < state.queues[$0].count }
        guard ready else {
            let othersDone = state.done.indices.allSatisfy { $0 == index || state.done[$0] }
            return mode == .zipCollection && othersDone ? .completed : nil
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
        return .next(values)
    }

    @inlinable
    static func latest(_ value: Input, index: Int, _ state: inout State) -> Event<[Input]>? {
        state.latest[index] = value
        let values = state.latest.compactMap { $0 }
        if values.count == state.latest.count { return .next(values) }
        let othersDone = state.done.indices.allSatisfy { $0 == index || state.done[$0] }
        return othersDone ? .completed : nil
    }

    /// Delivers `first` and what follows it in the outbox, computing each result on the way;
    /// a throwing result selector ends the sequence with its error.
    @inlinable
    func deliver(_ first: Event<[Input]>?) {
        var pending = first
        while let current = pending {
            let event: Event<Result>
            switch current {
            case .next(let values):
                do {
                    event = .next(try combine(values))
                } catch {
                    state.withLock { $0.stopped = true }
                    event = .error(error)
                }
            case .error(let error): event = .error(error)
            case .completed: event = .completed
            }
            downstream.on(event)
            if event.isStopEvent {
                dispose()
                return
            }
            pending = state.withLock { $0.outbox.pop() }
        }
    }

    @usableFromInline
    override func dispose() {
        state.withLock { state in
            state.stopped = true
            state.outbox.close()
        }
        super.dispose()
        for subscription in subscriptions { subscription.dispose() }
    }
}
