import Reactive

extension Recorded {
    /// RxTest's `Recorded.events(...)`: the given recorded events as an array.
    ///
    /// ```swift
    /// let expected = Recorded.events(.next(210, 4), .completed(300))
    /// ```
    public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...) -> [Recorded<Event<Element>>]
        where Value == Event<Element> {
        recordedEvents
    }

    /// RxTest's `Recorded.events(_:)` over an array.
    public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>]) -> [Recorded<Event<Element>>]
        where Value == Event<Element> {
        recordedEvents
    }
}
