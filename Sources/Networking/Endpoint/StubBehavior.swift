import Foundation

/// Whether and when a provider answers with the endpoint's sample response instead of the network.
public enum StubBehavior: Sendable, Equatable {
    /// Use the network.
    case never
    /// Answer at once (on the provider's scheduler).
    case immediate
    /// Answer after the delay (on the provider's scheduler, so virtual time works).
    case delayed(Duration)

    /// Answer after `seconds` (Moya's `.delayed(seconds:)`), on the provider's scheduler.
    public static func delayed(seconds: TimeInterval) -> StubBehavior {
        .delayed(.seconds(seconds))
    }
}
