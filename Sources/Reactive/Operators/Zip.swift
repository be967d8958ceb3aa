import Foundation

extension Observable {
    /// Pairs the sources' elements by index; completes when every source has completed (RxSwift 6).
    ///
    /// ```swift
    /// Observable.zip(names, ages) { "\($0) is \($1)" }
    /// ```
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B, resultSelector: @escaping @Sendable (A.Element, B.Element) throws -> Element
    ) -> Observable<Element> {
        ZipLatestCore.observable(.zip, [erase(a), erase(b)]) { values in
            try resultSelector(cast(values[0]), cast(values[1]))
        }
    }

    /// Triples the sources' elements by index.
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C,
        resultSelector: @escaping @Sendable (A.Element, B.Element, C.Element) throws -> Element
    ) -> Observable<Element> {
        ZipLatestCore.observable(.zip, [erase(a), erase(b), erase(c)]) { values in
            try resultSelector(cast(values[0]), cast(values[1]), cast(values[2]))
        }
    }

    /// Emits the latest element of each source whenever one emits, once all have emitted;
    /// completes when all have completed, or when an element arrives that can never be combined
    /// because every other source completed without an element (RxSwift 6).
    ///
    /// ```swift
    /// Observable.combineLatest(user, settings) { ($0, $1) }
    /// ```
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B, resultSelector: @escaping @Sendable (A.Element, B.Element) throws -> Element
    ) -> Observable<Element> {
        ZipLatestCore.observable(.combineLatest, [erase(a), erase(b)]) { values in
            try resultSelector(cast(values[0]), cast(values[1]))
        }
    }

    /// The latest of three sources, combined.
    public static func combineLatest<
        A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType
    >(
        _ a: A, _ b: B, _ c: C,
        resultSelector: @escaping @Sendable (A.Element, B.Element, C.Element) throws -> Element
    ) -> Observable<Element> {
        ZipLatestCore.observable(.combineLatest, [erase(a), erase(b), erase(c)]) { values in
            try resultSelector(cast(values[0]), cast(values[1]), cast(values[2]))
        }
    }

    /// Pairs the elements of two sources by index, as tuples.
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B
    ) -> Observable<Element> where Element == (A.Element, B.Element) {
        zip(a, b) { ($0, $1) }
    }

    /// The latest elements of two sources, as tuples.
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B
    ) -> Observable<Element> where Element == (A.Element, B.Element) {
        combineLatest(a, b) { ($0, $1) }
    }

    private static func erase<S: ObservableConvertibleType>(_ source: S) -> Observable<Any> {
        source.asObservable().map { $0 as Any }
    }
}

extension Observable {
    /// Zips any number of sources of one type into arrays.
    public static func zip<Value>(_ sources: [Observable<Value>]) -> Observable<Element> where Element == [Value] {
        ZipLatestCore.observable(.zip, sources.map { $0.map { $0 as Any } }) { values in values.map { cast($0) } }
    }

    /// Combines the latest elements of any number of sources of one type into arrays.
    public static func combineLatest<Value>(_ sources: [Observable<Value>]) -> Observable<Element>
        where Element == [Value] {
        ZipLatestCore.observable(.combineLatest, sources.map { $0.map { $0 as Any } }) { values in
            values.map { cast($0) }
        }
    }
}

/// Recovers a value that `zip`/`combineLatest` erased to `Any` on the way in; the types match by construction.
@inline(__always)
func cast<Value>(_ value: Any) -> Value {
    // The engine only stores what `erase` produced from a source of exactly this type.
    value as! Value
}

/// The engine shared by `zip` (queues per source) and `combineLatest` (latest per source).
enum ZipLatestCore {
    enum Mode { case zip, combineLatest }

    static func observable<Result>(
        _ mode: Mode, _ sources: [Observable<Any>], combine: @escaping @Sendable ([Any]) throws -> Result
    ) -> Observable<Result> {
        Observable { observer in
            let sink = ZipLatestSink(downstream: observer, mode: mode, arity: sources.count, combine: combine)
            sink.run(sources)
            return sink
        }
    }
}

// @unchecked: every mutable field is guarded by the recursive `lock`, also held while forwarding.
final class ZipLatestSink<Result>: Sink<Result>, @unchecked Sendable {
    private let mode: ZipLatestCore.Mode
    private let combine: @Sendable ([Any]) throws -> Result
    private let lock = NSRecursiveLock()
    private let subscriptions = CompositeDisposable()
    private var queues: [[Any]]
    private var latest: [Any?]
    private var finished: [Bool]

    init(
        downstream: AnyObserver<Result>, mode: ZipLatestCore.Mode, arity: Int,
        combine: @escaping @Sendable ([Any]) throws -> Result
    ) {
        self.mode = mode
        self.combine = combine
        queues = Array(repeating: [], count: arity)
        latest = Array(repeating: nil, count: arity)
        finished = Array(repeating: false, count: arity)
        super.init(downstream: downstream)
    }

    func run(_ sources: [Observable<Any>]) {
        if sources.isEmpty {
            stop(with: .completed)
            return
        }
        for (index, source) in sources.enumerated() {
            let subscription = SingleAssignmentDisposable()
            subscriptions.insert(subscription)
            subscription.setDisposable(source.subscribe(handler: { self.on($0, index: index) }))
        }
    }

    private func on(_ event: Event<Any>, index: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return }
        switch event {
        case .next(let value):
            switch mode {
            case .zip: onZipNext(value, index: index)
            case .combineLatest: onLatestNext(value, index: index)
            }
        case .error(let error):
            stop(with: .error(error))
        case .completed:
            finished[index] = true
            if !finished.contains(false) { stop(with: .completed) }
        }
    }

    private func onZipNext(_ value: Any, index: Int) {
        queues[index].append(value)
        guard !queues.contains(where: \.isEmpty) else { return }
        var values: [Any] = []
        values.reserveCapacity(queues.count)
        for position in queues.indices { values.append(queues[position].removeFirst()) }
        emit(values)
    }

    private func onLatestNext(_ value: Any, index: Int) {
        latest[index] = value
        let values = latest.compactMap { $0 }
        guard values.count == latest.count else {
            if !finished.indices.contains(where: { $0 != index && !finished[$0] }) { stop(with: .completed) }
            return
        }
        emit(values)
    }

    private func emit(_ values: [Any]) {
        do {
            downstream.on(.next(try combine(values)))
        } catch {
            stop(with: .error(error))
        }
    }

    override func dispose() {
        super.dispose()
        subscriptions.dispose()
    }
}
