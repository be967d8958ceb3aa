import Synchronization

/// Whether a request started or finished.
public enum NetworkActivityChangeType: Sendable, Equatable {
    /// `willSend` was called.
    case began
    /// `didReceive` was called.
    case ended
}

/// Reports `.began` on `willSend` and `.ended` on `didReceive`, and keeps a live count of requests in flight.
public final class NetworkActivityPlugin: PluginType {
    /// Receives each change and its target.
    public typealias NetworkActivityClosure = @Sendable (_ change: NetworkActivityChangeType, _ target: any TargetType) -> Void

    private let networkActivityClosure: NetworkActivityClosure
    private let count = Atomic<Int>(0)

    /// A plugin that calls `networkActivityClosure` on the thread of each `willSend` and
    /// `didReceive`, with no lock held.
    public init(networkActivityClosure: @escaping NetworkActivityClosure) {
        self.networkActivityClosure = networkActivityClosure
    }

    /// Requests between `willSend` and `didReceive` right now.
    public var inFlightCount: Int { count.load(ordering: .acquiring) }

    /// Counts the request and reports `.began`.
    public func willSend(_ request: any RequestType, target: any TargetType) {
        count.wrappingAdd(1, ordering: .acquiringAndReleasing)
        networkActivityClosure(.began, target)
    }

    /// Uncounts the request and reports `.ended`.
    public func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
        var current = count.load(ordering: .acquiring)
        while current > 0 {
            let (exchanged, original) = count.compareExchange(expected: current, desired: current - 1, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = original
        }
        networkActivityClosure(.ended, target)
    }
}
