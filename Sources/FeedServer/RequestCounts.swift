/// Requests whose head was parsed, in all and per path: one shard of a `RequestTally`.
struct RequestCounts: Sendable {
    var total = 0
    var byPath: [String: Int] = [:]

    mutating func record(path: String) {
        total += 1
        byPath[path, default: 0] += 1
    }
}
