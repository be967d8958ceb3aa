/// The requests waiting for a host's connection, first come first: an array whose front moves
/// forward instead of shifting what follows it.
///
/// With hundreds of requests waiting, `Array.remove(at: 0)` moved all of them on every released
/// connection. Here taking the front costs nothing and taking an element near the front moves
/// only the ones before it; spent slots are cleared at once (so nothing they held stays alive)
/// and dropped when they make up half of the storage.
struct WaiterQueue<Element> {
    private var slots: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == slots.count }

    /// Waiting elements.
    var count: Int { slots.count - head }

    mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Adds `element` behind every waiting one that does not come after it by `precedes`:
    /// elements that arrive a little out of their order (requests reaching the pool from several
    /// loops) take their place; in order, it is `append`.
    mutating func insert(_ element: Element, by precedes: (Element, Element) -> Bool) {
        slots.append(element)
        var index = slots.count - 1
        while index > head, let previous = slots[index - 1], precedes(element, previous) {
            slots[index] = previous
            slots[index - 1] = element
            index -= 1
        }
    }

    /// The front element.
    var first: Element? { isEmpty ? nil : slots[head] }

    /// The position of the first element that satisfies `predicate`.
    func firstIndex(where predicate: (Element) -> Bool) -> Int? {
        for index in head..<slots.count {
            if let element = slots[index], predicate(element) { return index - head }
        }
        return nil
    }

    /// Takes the element `position` places behind the front (0 is the front); the elements before
    /// it move back by one place. Nil when `position` is past the end.
    mutating func remove(at position: Int) -> Element? {
        guard position >= 0, position < count else { return nil }
        var index = head + position
        let taken = slots[index]
        while index > head {
            slots[index] = slots[index - 1]
            index -= 1
        }
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return taken
    }

    mutating func removeFirst() -> Element? {
        remove(at: 0)
    }
}
