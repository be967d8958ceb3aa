import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The `timeoutInterval` every `URLRequest` starts with (60 s), read once.
    private static let initialTimeoutInterval = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval

    /// The timeout the caller set on this request; nil when it kept the initial one or set one
    /// that is not positive, so that the transport's own timeout applies. Both transports read it.
    var callerTimeout: Duration? {
        guard timeoutInterval != Self.initialTimeoutInterval, timeoutInterval > 0 else { return nil }
        return .milliseconds(Int64(min(timeoutInterval, 1e9) * 1000))
    }
}
