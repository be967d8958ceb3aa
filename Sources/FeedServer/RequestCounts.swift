/// Requests whose head was parsed, in all and per path; behind a lock of their own, so that
/// counting a request (once per request, on every connection thread) waits for nothing else.
struct RequestCounts: Sendable {
    var total = 0
    var byPath: [String: Int] = [:]

    mutating func record(path: String) {
        total += 1
        byPath[path, default: 0] += 1
    }
}
