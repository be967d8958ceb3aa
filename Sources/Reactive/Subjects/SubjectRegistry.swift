/// A subject's live subscriptions in subscription order, found by id without hashing.
///
/// Ids only grow, so appending keeps the entries sorted and a binary search finds one. Removing
/// leaves a hole; holes at the end go at once, the others once they are half the entries, so
/// removing in any order costs amortized `O(log n)`. An emptied registry keeps small storage.
@usableFromInline
struct SubjectRegistry<Element> {
    @usableFromInline
    struct Entry {
        @usableFromInline let id: Int
        @usableFromInline var subscription: SubjectSubscription<Element>?

        @inlinable
        init(id: Int, subscription: SubjectSubscription<Element>) {
            self.id = id
            self.subscription = subscription
        }
    }

    @usableFromInline var entries: ContiguousArray<Entry> = []
    @usableFromInline var liveCount = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { liveCount == 0 }

    /// Adds `subscription`, whose id is greater than every id added before.
    @inlinable
    mutating func append(_ subscription: SubjectSubscription<Element>) {
        entries.append(Entry(id: subscription.id, subscription: subscription))
        liveCount += 1
    }

    /// Removes the subscription with `id`; false when it is not here (removed already).
    @inlinable
    mutating func remove(id: Int) -> Bool {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].id == id, entries[low].subscription != nil else { return false }
        entries[low].subscription = nil
        liveCount -= 1
        if liveCount == 0 {
            if entries.capacity > 64 {
                entries = []
            } else {
                while !entries.isEmpty { entries.removeLast() }
            }
        } else if low == entries.count - 1 {
            while entries.last?.subscription == nil { entries.removeLast() }
        } else if entries.count > 16 && liveCount * 2 < entries.count {
            entries.removeAll { $0.subscription == nil }
        }
        return true
    }

    /// The live subscriptions, in subscription order.
    @inlinable
    var subscriptions: ContiguousArray<SubjectSubscription<Element>> {
        var result = ContiguousArray<SubjectSubscription<Element>>()
        result.reserveCapacity(liveCount)
        for entry in entries {
            if let subscription = entry.subscription { result.append(subscription) }
        }
        return result
    }

    /// Takes every live subscription out, in subscription order.
    @inlinable
    mutating func removeAll() -> ContiguousArray<SubjectSubscription<Element>> {
        defer {
            entries = []
            liveCount = 0
        }
        return subscriptions
    }
}
