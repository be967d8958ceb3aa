import Dispatch
import FeedServer
import Foundation
import Locking
import Networking

/// n: what `SessionOptions` costs a request through `SocketTransport`: a fresh response answered
/// from the HTTP cache, and the default fields plus cookies on requests to the server.
enum SessionBenchmarks {
    static func run(_ context: BenchmarkContext) {
        guard let server = BenchmarkServer.start(for: "n") else { return }
        defer { server.stop() }
        cachedFreshResponse(context, server: server)
        headersAndCookies(context, server: server)
    }

    /// `n.cached-fresh-response`: `send` of a GET whose response (`Cache-Control: max-age`) is
    /// fresh in the cache, answered inside `send`; ns per request. Baseline: the store's own lookup.
    private static func cachedFreshResponse(_ context: BenchmarkContext, server: FeedServer) {
        let cache = HTTPCache(memoryCapacity: 4 << 20)
        let transport = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: cache))
        let request = URLRequest(url: server.baseURL.appendingPathComponent("images/bench-1.jpg"))
        guard status(of: request, through: transport) != nil,
              cache.cachedResponse(for: request) != nil else {
            FileHandle.standardError.write(Data("n: the picture was not cached\n".utf8))
            return
        }
        let key = HTTPCache.key(method: "GET", url: request.url ?? server.baseURL)
        let requests = context.size(100_000)
        context.compare("n.cached-fresh-response", operations: requests, baselineName: "ResponseCache lookup alone",
                        ours: {
                            let tally = Tally()
                            for _ in 0..<requests {
                                _ = transport.send(request, progress: nil) { result in tally.add((try? result.get())?.statusCode ?? -1) }
                            }
                            return tally.value
                        },
                        baseline: {
                            var total = 0
                            for _ in 0..<requests { total &+= cache.store.response(forKey: key)?.statusCode ?? -1 }
                            return total
                        })
    }

    /// `n.headers-cookies`: the fields `SessionOptions` puts on a request (the default fields and
    /// the `Cookie` field from a storage of five cookies, two of them for the request's host), as
    /// the list the client gets (`sessionRequestFieldCount`), ns per request; baseline: reading
    /// the request's own fields, which every send does.
    /// `n.echo-headers-cookies`: sequential GETs of `/echo` with the default fields and a cookie
    /// storage holding five cookies (two of them sent); ns of CPU per request under `--cpu-time`.
    /// Baseline: the same requests with no default fields, no cookies and no cache.
    private static func headersAndCookies(_ context: BenchmarkContext, server: FeedServer) {
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "benchmarks-n")
        for (index, domain) in ["127.0.0.1", "127.0.0.1", "example.com", "example.org", "localhost"].enumerated() {
            if let cookie = HTTPCookie(properties: [.name: "c\(index)", .value: "v\(index)", .domain: domain, .path: "/"]) {
                storage.setCookie(cookie)
            }
        }
        let full = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        let bare = SocketTransport(session: SessionOptions(headers: [:], cookieStorage: nil, cache: nil))
        let request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
        let requests = context.size(4_000)
        let fields = context.size(200_000)
        context.compare("n.headers-cookies", operations: fields, baselineName: "the request's own fields read",
                        ours: {
                            var total = 0
                            for _ in 0..<fields { total &+= full.sessionRequestFieldCount(for: request) }
                            return total
                        },
                        baseline: {
                            var total = 0
                            for _ in 0..<fields { total &+= request.allHTTPHeaderFields?.count ?? -1 }
                            return total
                        })
        context.compare("n.echo-headers-cookies", operations: requests, baselineName: "no default fields, cookies or cache",
                        ours: { sequential(requests, request, full) }, baseline: { sequential(requests, request, bare) })
    }

    private static func sequential(_ requests: Int, _ request: URLRequest, _ transport: SocketTransport) -> Int {
        var total = 0
        for _ in 0..<requests { total &+= status(of: request, through: transport) ?? -1 }
        return total
    }

    /// The status `transport` answers `request` with, waited for at most 10 s.
    private static func status(of request: URLRequest, through transport: SocketTransport) -> Int? {
        let done = DispatchSemaphore(value: 0)
        let status = Lock<Int?>(nil)
        _ = transport.send(request, progress: nil) { result in
            status.withLock { $0 = (try? result.get())?.statusCode }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return status.withLock { $0 }
    }
}
