/// Values by key in recency order, evicting the least recently used beyond `capacity` entries or
/// beyond `costLimit` in total cost (each value's cost given when it is set).
/// A doubly linked list threaded through a dictionary by key: every operation is O(1).
struct LRUIndex<Value> {
    private struct Node {
        var value: Value
        var cost: Int
        var older: String?
        var newer: String?
    }

    let capacity: Int
    let costLimit: Int
    /// The cost of every value held.
    private(set) var totalCost = 0
    private var nodes: [String: Node] = [:]
    private var oldest: String?
    private var newest: String?

    init(capacity: Int, costLimit: Int = .max) {
        self.capacity = max(0, capacity)
        self.costLimit = max(0, costLimit)
    }

    /// The least recently used key.
    var oldestKey: String? { oldest }
    /// Whether it holds nothing.
    var isEmpty: Bool { oldest == nil }

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
        // The most recent already (a revalidated or repeated key) stays where it is.
        if key != newest {
            unlink(key, node)
            append(key, value: node.value, cost: node.cost)
        }
        return node.value
    }

    /// Stores `value` as the most recently used; returns the keys evicted to stay within capacity
    /// and the cost limit (`key` itself when its cost alone is over the limit).
    @discardableResult
    mutating func set(_ value: Value, forKey key: String, cost: Int = 0) -> [String] {
        if key == newest, capacity > 0, cost <= costLimit, let node = nodes[key] {
            // Replaced in place: the most recent stays the most recent.
            nodes[key] = Node(value: value, cost: max(0, cost), older: node.older, newer: nil)
            totalCost += max(0, cost) - node.cost
        } else {
            if let node = nodes[key] { unlink(key, node) }
            guard capacity > 0, cost <= costLimit else { return [key] }
            append(key, value: value, cost: max(0, cost))
        }
        var evicted: [String] = []
        while nodes.count > capacity || totalCost > costLimit, let key = oldest, let node = nodes[key] {
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
        totalCost = 0
        oldest = nil
        newest = nil
    }

    private mutating func unlink(_ key: String, _ node: Node) {
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        totalCost -= node.cost
        nodes[key] = nil
    }

    private mutating func append(_ key: String, value: Value, cost: Int) {
        nodes[key] = Node(value: value, cost: cost, older: newest, newer: nil)
        totalCost += cost
        if let newest { nodes[newest]?.newer = key } else { oldest = key }
        newest = key
    }
}
