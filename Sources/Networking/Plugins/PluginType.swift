import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient

/// Hooks a provider calls around every request, in this order: `prepare`, `willSend`,
/// `didReceive`, `didMeasure` (when the transport measured the request), `process`. Every hook
/// has a default that does nothing.
public protocol PluginType: Sendable {
    /// Changes the request before it is sent (add headers, sign...).
    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest
    /// Called just before sending, with what `prepare` produced.
    func willSend(_ request: any RequestType, target: any TargetType)
    /// Called with the result, before `process`.
    func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType)
    /// Called after `didReceive` with the request's timings, when its response (or the response
    /// that came before its failure) carries them: `SocketTransport`'s do.
    func didMeasure(_ timings: HTTPClientTimings, target: any TargetType)
    /// May replace the result the caller gets.
    func process(_ result: Result<Response, ProviderError>, target: any TargetType) -> Result<Response, ProviderError>
}

extension PluginType {
    /// Returns `request` unchanged.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest { request }
    /// By default a plugin ignores the request being sent.
    public func willSend(_ request: any RequestType, target: any TargetType) {}
    /// By default a plugin ignores the result.
    public func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {}
    /// By default a plugin ignores the timings.
    public func didMeasure(_ timings: HTTPClientTimings, target: any TargetType) {}
    /// Returns `result` unchanged.
    public func process(_ result: Result<Response, ProviderError>, target: any TargetType) -> Result<Response, ProviderError> { result }
}
