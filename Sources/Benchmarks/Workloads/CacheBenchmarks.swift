import Foundation
import HTTPWire
import Networking

/// n: what the HTTP cache (RFC 9111) costs an exchange through `SocketTransport`, without the
/// network (`SocketTransport.sessionAnswer`: the cache's decision before sending, the answer
/// built as the transport builds it, the cache told), ns per exchange, beside the same exchange
/// with the cache off. With allocations counted (`scripts/count-allocations.sh --filter n.`),
/// each row also reports allocations per exchange.
///
/// - `n.revalidated-response`: a stored 200 (`no-cache`, nginx's fields) revalidated: the request
///   made conditional, the 304 merged into the stored answer and stored again. Baseline: the
///   same request sending `If-None-Match` itself, answered by the same plain 304.
/// - `n.uncacheable-answer`: a GET answered by a 200 without caching fields, the cache holding
///   another response. Baseline: the cache off.
/// - `n.no-store-request`: a GET with `Cache-Control: no-store` answered by a cacheable 200.
///   Baseline: the cache off.
enum CacheBenchmarks {
    static func run(_ context: BenchmarkContext) {
        let names = ["n.revalidated-response", "n.uncacheable-answer", "n.no-store-request"]
        guard names.contains(where: context.selects) else { return }
        let base = URL(string: "http://127.0.0.1:8080/")!
        let cache = HTTPCache(memoryCapacity: 4 << 20)
        let cached = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: cache))
        let bare = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: nil))
        let body = Data(repeating: 0x61, count: 2_048)
        let revalidated = URLRequest(url: base.appendingPathComponent("static/feed.json"))
        var conditional = revalidated
        conditional.setValue(etag, forHTTPHeaderField: "If-None-Match")
        guard cached.sessionAnswer(for: revalidated, head: stored, body: body) == 200,
              cached.sessionAnswer(for: revalidated, head: notModified, body: Data()) == 200 else {
            FileHandle.standardError.write(Data("n.revalidated-response: the stored answer was not revalidated\n".utf8))
            return
        }
        var noStore = URLRequest(url: base.appendingPathComponent("api/items"))
        noStore.setValue("no-store", forHTTPHeaderField: "Cache-Control")
        let plain = URLRequest(url: base.appendingPathComponent("api/items"))
        let exchanges = context.size(100_000)
        let rows: [(String, String, () -> Int, () -> Int)] = [
            ("n.revalidated-response", "a plain 304, the cache off",
             { cached.sessionAnswer(for: revalidated, head: notModified, body: Data()) },
             { bare.sessionAnswer(for: conditional, head: notModified, body: Data()) }),
            ("n.uncacheable-answer", "the cache off",
             { cached.sessionAnswer(for: plain, head: uncacheable, body: body) },
             { bare.sessionAnswer(for: plain, head: uncacheable, body: body) }),
            ("n.no-store-request", "the cache off",
             { cached.sessionAnswer(for: noStore, head: cacheable, body: body) },
             { bare.sessionAnswer(for: noStore, head: cacheable, body: body) }),
        ]
        for (name, baselineName, ours, baseline) in rows where context.selects(name) {
            context.compare(name, operations: exchanges, baselineName: baselineName,
                            ours: { repeatedly(exchanges, ours) }, baseline: { repeatedly(exchanges, baseline) })
            guard ResourceUsage.allocationCount != nil else { continue }
            let count = min(exchanges, 10_000)
            context.report(BenchmarkResult(name: name + ".allocations", unit: "allocations/exchange",
                                           value: allocations(count, ours), baseline: allocations(count, baseline),
                                           baselineName: baselineName))
        }
    }

    private static let etag = "\"6756e3c1-800\""
    private static let date = "Wed, 02 Dec 2026 07:00:00 GMT"
    private static let modified = "Mon, 09 Dec 2024 12:34:09 GMT"

    /// nginx's answer to a static file, told to revalidate every time.
    private static let stored = HTTPResponseHead(status: 200, reason: "OK", headers: [
        "Server": "nginx/1.22.1", "Date": date, "Content-Type": "application/json", "Content-Length": "2048",
        "Last-Modified": modified, "Connection": "keep-alive", "ETag": etag, "Cache-Control": "no-cache",
        "Accept-Ranges": "bytes",
    ])
    /// nginx's 304 to the conditional request.
    private static let notModified = HTTPResponseHead(status: 304, reason: "Not Modified", headers: [
        "Server": "nginx/1.22.1", "Date": date, "Last-Modified": modified, "Connection": "keep-alive", "ETag": etag,
        "Cache-Control": "no-cache",
    ])
    /// An API's answer that no cache keeps.
    private static let uncacheable = HTTPResponseHead(status: 200, reason: "OK", headers: [
        "Server": "nginx/1.22.1", "Date": date, "Content-Type": "application/json", "Content-Length": "2048",
        "Connection": "keep-alive",
    ])
    /// An answer a cache could keep, to a request that says `no-store`.
    private static let cacheable = HTTPResponseHead(status: 200, reason: "OK", headers: [
        "Server": "nginx/1.22.1", "Date": date, "Content-Type": "application/json", "Content-Length": "2048",
        "Connection": "keep-alive", "Cache-Control": "max-age=60", "ETag": etag,
    ])

    private static func repeatedly(_ count: Int, _ exchange: () -> Int) -> Int {
        var total = 0
        for _ in 0..<count { total &+= exchange() }
        return total
    }

    private static func allocations(_ count: Int, _ exchange: () -> Int) -> Double {
        _ = repeatedly(min(count, 100), exchange)
        let before = ResourceUsage.allocationCount ?? 0
        _ = repeatedly(count, exchange)
        return Double((ResourceUsage.allocationCount ?? 0) - before) / Double(count)
    }
}
