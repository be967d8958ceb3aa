import Locking

/// Requests whose head was parsed, in all and per path, counted in shards: a connection counts
/// in the shard its descriptor picks, so connection threads seldom wait for each other, and a
/// reader sums the shards.
///
/// With one lock, counting was a sixth of all CPU when a client kept 256 requests in flight over
/// 32 connections: every server thread always had its next request, so all of them counted at
/// once, and the lock's waits went through the kernel. The count is made before the answer is
/// written, so a client that has its answer reads a count that includes it.
final class RequestTally: Sendable {
    private final class Shard: Sendable {
        let counts = Lock(RequestCounts())
    }

    private let shards: [Shard]

    init(shards: Int = 16) {
        self.shards = (0..<max(1, shards)).map { _ in Shard() }
    }

    /// Counts a request for `path` read on the connection with descriptor `connection`.
    func record(path: String, connection: Int32) {
        shards[Int(connection.magnitude) % shards.count].counts.withLock { $0.record(path: path) }
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
