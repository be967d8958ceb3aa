/// The timers of one event loop: a binary min-heap of deadlines. Cancelling removes the action
/// at once and leaves its heap entry to be skipped when it comes up; when such entries outnumber
/// the live ones (an idle timer per request, cancelled long before its deadline), the heap is
/// rebuilt from the live entries, so its size stays proportional to the timers pending.
struct TimerHeap {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64
    }

    private var heap: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 0

    /// Adds `action` to run at `deadline`; returns the id `cancel` takes.
    mutating func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping () -> Void) -> UInt64 {
        nextID += 1
        actions[nextID] = action
        heap.append(Entry(deadline: deadline, id: nextID))
        siftUp(heap.count - 1)
        return nextID
    }

    /// Forgets the timer `id` (no effect when it already ran).
    mutating func cancel(_ id: UInt64) {
        guard actions.removeValue(forKey: id) != nil else { return }
        if heap.count > 2 * actions.count + 1_024 { compact() }
    }

    /// Entries in the heap, cancelled ones included (for tests).
    var entryCount: Int { heap.count }

    /// Drops cancelled entries; a sorted array is a valid min-heap.
    private mutating func compact() {
        heap.removeAll { actions[$0.id] == nil }
        heap.sort { $0.deadline < $1.deadline }
    }

    /// The earliest deadline of a live timer.
    mutating func nextDeadline() -> ContinuousClock.Instant? {
        while let first = heap.first {
            if actions[first.id] != nil { return first.deadline }
            popFirst()
        }
        return nil
    }

    /// Removes and returns the actions due at `now`, earliest first.
    mutating func takeDue(at now: ContinuousClock.Instant) -> [() -> Void] {
        var due: [() -> Void] = []
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let action = actions.removeValue(forKey: first.id) { due.append(action) }
        }
        return due
    }

    private mutating func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var smallest = parent
            let left = 2 * parent + 1
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if left + 1 < heap.count && heap[left + 1].deadline < heap[smallest].deadline { smallest = left + 1 }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
