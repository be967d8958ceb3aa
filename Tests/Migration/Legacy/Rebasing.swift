import Networking

extension NetworkProvider {
    /// Sends every target to `server` (scheme, host and port), keeping the path of the target's
    /// `baseURL` and its own `path`: any `TargetType` with a hard-coded `baseURL` reaches a test server.
    static func rebasing(onto server: URL) -> EndpointClosure {
        { target in
            var components = URLComponents(url: target.baseURL, resolvingAgainstBaseURL: false)
            components?.scheme = server.scheme
            components?.host = server.host
            components?.port = server.port
            return Endpoint(target: target, baseURL: components?.url ?? server)
        }
    }

    /// Sends every target to one of `server`'s routes (`status/503`, `delay/2000`, `drop` ...),
    /// whatever its path, with the target's method, task and headers.
    static func answering(from route: String, of server: URL) -> EndpointClosure {
        { target in
            Endpoint(url: server.appendingPathComponent(route).absoluteString,
                     sampleResponseClosure: { .networkResponse(200, target.sampleData) },
                     method: target.method, task: target.task, httpHeaderFields: target.headers)
        }
    }
}
