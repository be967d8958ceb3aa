import Foundation

/// The endpoint a provider builds from a target by default: `baseURL` with `path` appended
/// (unless `path` is empty), the target's method, task and headers, and a sample response of
/// status 200 with `sampleData`.
public func defaultEndpoint(for target: some TargetType) -> Endpoint {
    let url = target.path.isEmpty ? target.baseURL : target.baseURL.appendingPathComponent(target.path)
    let sampleData = target.sampleData
    return Endpoint(url: url.absoluteString,
                    sampleResponseClosure: { .networkResponse(200, sampleData) },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers,
                    builtURL: url)
}
