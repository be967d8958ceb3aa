import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionConfiguration {
    /// The deadline of a whole exchange that `timeoutIntervalForResource` sets, as both
    /// transports enforce it: none for URLSession's seven-day default (which bounds nothing a
    /// caller would notice: no timer for it), nor for a value that is not positive.
    var resourceDeadline: Duration? {
        guard timeoutIntervalForResource > 0, timeoutIntervalForResource < 604_800 else { return nil }
        return .milliseconds(Int64(timeoutIntervalForResource * 1000))
    }
}
