/// The timers of one event loop: a binary min-heap of deadlines over a table of timer slots.
///
/// Each timer lives in a slot that knows its place in the heap, so cancelling removes it at once
/// (no cancelled entry waits in the heap), and a slot's generation tells a handle of a timer
/// that already fired or was cancelled from the slot's next timer. Deadlines are nanoseconds on
/// the loop's monotonic clock, a fixed-size integer: the heap's moves copy plain words.
struct TimerHeap {
    private struct Slot {
        var action: (() -> Void)?
        var deadline: Int64 = 0
        var heapIndex = -1
        var generation: UInt32 = 0
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Slot indices, ordered as a min-heap by their slots' deadlines.
    private var heap: [Int] = []

    /// Adds `action` to run at `deadline`; returns the id `cancel` takes.
    mutating func schedule(at deadline: Int64, _ action: @escaping () -> Void) -> UInt64 {
        let index = freeSlots.popLast() ?? {
            slots.append(Slot())
            return slots.count - 1
        }()
        slots[index].action = action
        slots[index].deadline = deadline
        slots[index].heapIndex = heap.count
        heap.append(index)
        siftUp(heap.count - 1)
        return UInt64(slots[index].generation) << 32 | UInt64(index)
    }

    /// Forgets the timer `id` (no effect when it already ran or was cancelled).
    mutating func cancel(_ id: UInt64) {
        let index = Int(truncatingIfNeeded: id & 0xFFFF_FFFF)
        guard index < slots.count, UInt64(slots[index].generation) == id >> 32, slots[index].action != nil else { return }
        remove(at: slots[index].heapIndex)
    }

    /// Timers pending (for tests).
    var entryCount: Int { heap.count }

    /// The earliest deadline of a pending timer.
    var nextDeadline: Int64? {
        heap.first.map { slots[$0].deadline }
    }

    /// Removes and returns the earliest timer's action when it is due at `now`.
    mutating func popDue(at now: Int64) -> (() -> Void)? {
        guard let first = heap.first, slots[first].deadline <= now else { return nil }
        let action = slots[first].action
        remove(at: 0)
        return action
    }

    /// Takes the timer at heap position `position` out, freeing its slot.
    private mutating func remove(at position: Int) {
        let index = heap[position]
        slots[index].action = nil
        slots[index].heapIndex = -1
        slots[index].generation &+= 1
        freeSlots.append(index)
        let last = heap.removeLast()
        guard position < heap.count else { return }
        heap[position] = last
        slots[last].heapIndex = position
        siftDown(position)
        siftUp(slots[last].heapIndex)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard slots[heap[child]].deadline < slots[heap[parent]].deadline else { return }
            swap(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var smallest = parent
            let left = 2 * parent + 1
            if left < heap.count && slots[heap[left]].deadline < slots[heap[smallest]].deadline { smallest = left }
            if left + 1 < heap.count && slots[heap[left + 1]].deadline < slots[heap[smallest]].deadline { smallest = left + 1 }
            guard smallest != parent else { return }
            swap(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swap(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        slots[heap[a]].heapIndex = a
        slots[heap[b]].heapIndex = b
    }
}
