import Foundation

/// One stored response with what HTTP caching needs beside it: the request's fields that `Vary`
/// may name (lower-cased), when the request went and the response came, and the freshness
/// decision made when it was stored (nil for a response stored through `ResponseCache.store`,
/// which `HTTPCache` then decides from its fields and the times).
struct CacheSlot: Sendable {
    let response: Response
    let requestFields: [String: String]
    let requestTime: Date
    let responseTime: Date
    let freshness: CacheFreshness?

    /// The bytes it holds in memory, as the cost limit counts them (the body and a rough head).
    var cost: Int { response.data.count + 512 }
}
