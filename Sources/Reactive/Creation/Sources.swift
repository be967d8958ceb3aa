import Synchronization

extension Observable {
    /// One element, then completion.
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Observable { observer in
            observer.on(.next(element))
            observer.on(.completed)
            return Disposables.create()
        }
    }

    /// The given elements, then completion.
    public static func of(_ elements: Element...) -> Observable<Element> {
        from(elements)
    }

    /// The elements of a sequence, then completion; a downstream `take` stops the loop.
    ///
    /// ```swift
    /// Observable.from([1, 2, 3]).take(1)   // 1, completed
    /// ```
    @inlinable
    public static func from<S: Sequence>(_ sequence: S) -> Observable<Element> where S.Element == Element {
        Observable { observer in
            let sink = LoopSink<Element>(downstream: observer)
            let item = TrampolineItem {
                var iterator = sequence.makeIterator()
                while !sink.isDisposed, let element = iterator.next() {
                    sink.downstream.on(.next(element))
                }
                if !sink.isDisposed { sink.forwardTerminal(.completed) }
            }
            sink.upstream.set(item)
            CurrentThreadScheduler.enqueueOrRun(item)
            return sink
        }
    }

    /// Completes at once.
    public static func empty() -> Observable<Element> {
        Observable { observer in
            observer.on(.completed)
            return Disposables.create()
        }
    }

    /// Never emits and never ends.
    public static func never() -> Observable<Element> {
        Observable { _ in Disposables.create() }
    }

    /// Fails at once with `error`.
    public static func error(_ error: any Error) -> Observable<Element> {
        Observable { observer in
            observer.on(.error(error))
            return Disposables.create()
        }
    }

    /// Calls `factory` on every subscription and subscribes to what it returns; a throw becomes `.error`.
    public static func deferred(
        _ factory: @escaping @Sendable () throws -> Observable<Element>
    ) -> Observable<Element> {
        Observable { observer in
            do {
                return try factory().subscribe(observer)
            } catch {
                observer.on(.error(error))
                return Disposables.create()
            }
        }
    }
}

extension Observable where Element: BinaryInteger & Sendable {
    /// `count` consecutive integers from `start`, then completion.
    @inlinable
    public static func range(start: Element, count: Element) -> Observable<Element> {
        from(RangeSequence(start: start, count: count))
    }
}

/// `start ..< start + count` without overflow traps when `count` is 0, and no step past the
/// last element; counted with an `Int` so the loop does no generic arithmetic.
@usableFromInline
struct RangeSequence<Value: BinaryInteger>: Sequence, IteratorProtocol, Sendable where Value: Sendable {
    @usableFromInline var current: Value
    @usableFromInline var remaining: Int

    @inlinable
    init(start: Value, count: Value) {
        current = start
        remaining = count > 0 ? Int(clamping: count) : 0
    }

    @inlinable
    mutating func next() -> Value? {
        guard remaining > 0 else { return nil }
        remaining &-= 1
        let value = current
        if remaining > 0 { current += 1 }
        return value
    }
}

/// Holds a synchronous loop's subscription; `isDisposed` stops the loop.
// @unchecked: `disposed` is atomic; the rest is immutable.
@usableFromInline
final class LoopSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .relaxed) }

    @usableFromInline
    override func dispose() {
        disposed.store(true, ordering: .relaxed)
        super.dispose()
    }
}
