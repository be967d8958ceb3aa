import Locking

/// The results of the last few calls of a costly pure function, kept by their argument: the
/// screen is drawn again on every key and spinner tick with mostly the same pictures.
package final class RecentResults<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    /// Most recently used last.
    private let entries: Lock<[(key: Key, value: Value)]> = Lock([])

    /// Keeps at most `capacity` results.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The kept result for `key`, else `compute(key)` (outside the lock), kept.
    package func value(for key: Key, compute: (Key) -> Value) -> Value {
        let kept = entries.withLock { entries -> Value? in
            guard let index = entries.lastIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.value
        }
        if let kept { return kept }
        let value = compute(key)
        entries.withLock { entries in
            entries.append((key, value))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return value
    }
}
