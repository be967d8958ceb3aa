import Foundation

extension Endpoint {
    /// The endpoint a provider builds from `target` by default (`NetworkProvider.defaultEndpointMapping(for:)`):
    /// `baseURL` (the target's unless given) with `path` appended unless it is empty, the target's
    /// method, task and headers, and `sampleResponseClosure` (by default status 200 with `sampleData`).
    ///
    /// ```swift
    /// endpointClosure: { Endpoint(target: $0, baseURL: mirror) }
    /// ```
    public init(target: some TargetType, baseURL: URL? = nil, sampleResponseClosure: SampleResponseClosure? = nil) {
        let base = baseURL ?? target.baseURL
        let url = target.path.isEmpty ? base : base.appendingPathComponent(target.path)
        let sampleData = target.sampleData
        self.init(url: url.absoluteString,
                  sampleResponseClosure: sampleResponseClosure ?? { .networkResponse(200, sampleData) },
                  method: target.method,
                  task: target.task,
                  httpHeaderFields: target.headers)
    }
}
