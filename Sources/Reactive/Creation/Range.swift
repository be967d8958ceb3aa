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

extension Observable where Element: BinaryInteger & Sendable {
    /// `count` consecutive integers from `start`, then completion, each sent from its own
    /// action on `scheduler`.
    public static func range(start: Element, count: Element, scheduler: any SchedulerType) -> Observable<Element> {
        from(RangeSequence(start: start, count: count), scheduler: scheduler)
    }
}
