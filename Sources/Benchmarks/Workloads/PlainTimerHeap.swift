/// The plain-Swift limit for virtual time: a min-heap of (tick, sequence, closure), no locks.
struct PlainTimerHeap {
    private struct Entry {
        let time: Int
        let sequence: Int
        let action: () -> Void

        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : sequence < other.sequence
        }
    }

    private var entries: [Entry] = []
    private var sequence = 0

    mutating func push(at time: Int, _ action: @escaping () -> Void) {
        entries.append(Entry(time: time, sequence: sequence, action: action))
        sequence += 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Runs every entry in order; returns the last tick.
    mutating func runAll() -> Int {
        var clock = 0
        while let top = pop() {
            clock = top.time
            top.action()
        }
        return clock
    }

    private mutating func pop() -> Entry? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let top = entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < entries.count && entries[left].precedes(entries[first]) { first = left }
            if right < entries.count && entries[right].precedes(entries[first]) { first = right }
            if first == parent { break }
            entries.swapAt(parent, first)
            parent = first
        }
        return top
    }
}
