/// When a test observable was subscribed and disposed, in ticks.
///
/// ```swift
/// XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
/// ```
public struct Subscription: Hashable, Sendable, CustomDebugStringConvertible {
    /// The tick of subscription.
    public let subscribe: Int
    /// The tick of disposal; `Int.max` while still subscribed.
    public let unsubscribe: Int

    /// A subscription from `subscribe` to `unsubscribe` (still open when omitted).
    public init(_ subscribe: Int, _ unsubscribe: Int = Int.max) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(200, 300)` or `(200, open)`.
    public var debugDescription: String {
        unsubscribe == Int.max ? "(\(subscribe), open)" : "(\(subscribe), \(unsubscribe))"
    }
}
