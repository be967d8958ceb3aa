import Locking

/// Requests whose head was parsed, in all and per path, counted in shards: a connection counts
/// in the shard its number (its place in the order of admission) picks, so connections on
/// different loops seldom wait for each other, and a reader sums the shards.
///
/// With one lock, connections that all had their next request at once (a client keeping hundreds
/// in flight) waited for each other to count, in the kernel. The count is made before the answer is
/// written, so a client that has its answer reads a count that includes it.
final class RequestTally: Sendable {
    private final class Shard: Sendable {
        let counts = Lock(RequestCounts())
    }

    private let shards: [Shard]

    init(shards: Int = 16) {
        self.shards = (0..<max(1, shards)).map { _ in Shard() }
    }

    /// Counts a request for `path` read on the connection numbered `connection`.
    func record(path: String, connection: Int) {
        shards[Int(connection.magnitude % UInt(shards.count))].counts.withLock { $0.record(path: path) }
    }

    /// Requests counted, on every path.
    var total: Int {
        shards.reduce(0) { sum, shard in sum + shard.counts.withLock { $0.total } }
    }

    /// Requests counted for `path`.
    func count(path: String) -> Int {
        shards.reduce(0) { sum, shard in sum + shard.counts.withLock { $0.byPath[path, default: 0] } }
    }

    /// Requests counted for the paths that `matches` accepts.
    func count(where matches: (String) -> Bool) -> Int {
        shards.reduce(0) { sum, shard in
            let byPath = shard.counts.withLock { $0.byPath }
            return sum + byPath.reduce(0) { $0 + (matches($1.key) ? $1.value : 0) }
        }
    }
}
