/// Values by key in recency order, evicting the least recently used beyond `capacity`.
/// A doubly linked list threaded through a dictionary by key: every operation is O(1).
struct LRUIndex<Value> {
    private struct Node {
        var value: Value
        var older: String?
        var newer: String?
    }

    let capacity: Int
    private var nodes: [String: Node] = [:]
    private var oldest: String?
    private var newest: String?

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Keys from least to most recently used.
    var keys: [String] {
        var result: [String] = []
        result.reserveCapacity(nodes.count)
        var current = oldest
        while let key = current, let node = nodes[key] {
            result.append(key)
            current = node.newer
        }
        return result
    }

    /// The value for `key`, marking it most recently used.
    mutating func value(forKey key: String) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(key, node)
        append(key, value: node.value)
        return node.value
    }

    /// Stores `value` as the most recently used; returns the keys evicted to stay within capacity.
    @discardableResult
    mutating func set(_ value: Value, forKey key: String) -> [String] {
        if let node = nodes[key] { unlink(key, node) }
        guard capacity > 0 else { return [key] }
        append(key, value: value)
        var evicted: [String] = []
        while nodes.count > capacity, let key = oldest, let node = nodes[key] {
            unlink(key, node)
            evicted.append(key)
        }
        return evicted
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    mutating func remove(_ key: String) -> Bool {
        guard let node = nodes[key] else { return false }
        unlink(key, node)
        return true
    }

    mutating func removeAll() {
        nodes = [:]
        oldest = nil
        newest = nil
    }

    private mutating func unlink(_ key: String, _ node: Node) {
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        nodes[key] = nil
    }

    private mutating func append(_ key: String, value: Value) {
        nodes[key] = Node(value: value, older: newest, newer: nil)
        if let newest { nodes[newest]?.newer = key } else { oldest = key }
        newest = key
    }
}
