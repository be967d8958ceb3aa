/// One notification of a sequence: `next* (error | completed)?`.
///
/// ```swift
/// observer.on(.next(1)); observer.on(.completed)
/// ```
public enum Event<Element> {
    /// The next element.
    case next(Element)
    /// The sequence failed; nothing follows.
    case error(any Error)
    /// The sequence ended; nothing follows.
    case completed

    /// The element of a `.next` event, otherwise `nil`.
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `.error` event, otherwise `nil`.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether this is `.error` or `.completed`.
    public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The same event with its element transformed.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        switch self {
        case .next(let value):
            do { return .next(try transform(value)) } catch { return .error(error) }
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

extension Event: Sendable where Element: Sendable {}

extension Event: CustomDebugStringConvertible {
    /// `next(1)`, `error(...)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event: Equatable where Element: Equatable {
    /// Elements compare with `==`; errors are equal when both are the same `Equatable`
    /// error, or else when their `String(reflecting:)` descriptions match.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.next(let a), .next(let b)): return a == b
        case (.completed, .completed): return true
        case (.error(let a), .error(let b)): return errorsAreEqual(a, b)
        default: return false
        }
    }
}

/// Equality of two type-erased errors, as the events' `==` define it: the same `Equatable`
/// error type and `==`, or else the same `String(reflecting:)` description.
func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
    func compare<E: Equatable>(_ left: E) -> Bool? {
        guard let right = rhs as? E else { return nil }
        return left == right
    }
    // Cast through `Any`: cast directly, the compiler takes `any Error` for `any Equatable`.
    if let equatable = (lhs as Any) as? any Equatable, let result = compare(equatable) {
        return result
    }
    return String(reflecting: lhs) == String(reflecting: rhs)
}
