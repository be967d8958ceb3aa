import Reactive

/// A value stamped with the virtual tick at which it happened.
///
/// ```swift
/// let expected: [Recorded<Event<Int>>] = [.next(210, 4), .completed(300)]
/// ```
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// The tick.
    public let time: Int
    /// What happened at `time`, usually an `Event`.
    public let value: Value

    /// `value` at `time`.
    public init(time: Int, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value @ time`.
    public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Sendable where Value: Sendable {}

extension Recorded {
    /// `.next(element)` at `time`.
    public static func next<Element>(_ time: Int, _ element: Element) -> Recorded<Event<Element>>
        where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// `.completed` at `time`.
    public static func completed<Element>(_ time: Int, _ type: Element.Type = Element.self) -> Recorded<Event<Element>>
        where Value == Event<Element> {
        Recorded(time: time, value: .completed)
    }

    /// `.error(error)` at `time`.
    public static func error<Element>(
        _ time: Int, _ error: any Error, _ type: Element.Type = Element.self
    ) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: time, value: .error(error))
    }
}
