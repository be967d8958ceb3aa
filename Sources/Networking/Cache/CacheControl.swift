/// The directives of a `Cache-Control` field (RFC 9111 §5.2) that a private cache acts on, from a
/// request or a response. Unknown directives are ignored; a malformed number reads as absent,
/// except `max-age`, which then reads as 0 (stale), as §4.2.1 asks.
struct CacheControl: Equatable, Sendable {
    var noStore = false
    var noCache = false
    var isPrivate = false
    var isPublic = false
    var mustRevalidate = false
    var maxAge: Int?
    var sharedMaxAge: Int?
    /// A request's `max-stale`: `Int.max` when given without a value (any staleness).
    var maxStale: Int?
    var minFresh: Int?
    var onlyIfCached = false

    /// Parses `value` (a whole field, repeated fields joined with commas).
    init(_ value: String?) {
        guard let value, !value.isEmpty else { return }
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            guard let first = parts.first else { continue }
            let name = first.trimmingCharacters(in: .whitespaces).lowercased()
            let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]) : nil
            let seconds = argument.flatMap { Int($0) }.map { max(0, $0) }
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "public": isPublic = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = mustRevalidate || name == "must-revalidate"
            case "max-age": maxAge = seconds ?? 0
            case "s-maxage": sharedMaxAge = seconds
            case "max-stale": maxStale = argument == nil ? Int.max : seconds
            case "min-fresh": minFresh = seconds
            case "only-if-cached": onlyIfCached = true
            default: continue
            }
        }
    }
}
