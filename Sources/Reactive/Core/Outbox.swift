/// The events on their way to one observer, kept inside a sink's locked state, so that events
/// from several threads go downstream one at a time, in the order they were decided, and with
/// no lock held while the observer runs.
///
/// Under its lock, a sink decides what to emit and `push`es it: the caller that gets the event
/// back delivers it (outside the lock) and then keeps `pop`ping under the lock until nothing is
/// left; a caller that gets `nil` leaves the event to the thread already delivering. An event
/// pushed from inside the observer (re-entrantly) is delivered after the current one returns.
/// See `Sink.deliver(_:next:)`. Once the sink is disposed, `close()` drops what is still
/// waiting, so nothing reaches the observer after its subscription was disposed (RxSwift's
/// `Sink.forwardOn` checks the same).
@usableFromInline
struct Outbox<Element> {
    @usableFromInline var pending: [Event<Element>] = []
    @usableFromInline var head = 0
    @usableFromInline var isDelivering = false
    @usableFromInline var isClosed = false

    @inlinable
    init() {}

    /// Queues `event`; returns it when the caller must deliver it now (nobody else is).
    @inlinable
    mutating func push(_ event: Event<Element>) -> Event<Element>? {
        if isClosed { return nil }
        if isDelivering {
            pending.append(event)
            return nil
        }
        isDelivering = true
        return event
    }

    /// The next event for the delivering caller; `nil` ends its turn.
    @inlinable
    mutating func pop() -> Event<Element>? {
        guard !isClosed, head < pending.count else {
            isDelivering = false
            if head > 0 {
                pending.removeAll(keepingCapacity: pending.count <= 64)
                head = 0
            }
            return nil
        }
        let event = pending[head]
        head += 1
        return event
    }

    /// The subscription was disposed: drops the waiting events and everything pushed later;
    /// the delivering caller's next `pop` ends its turn.
    @inlinable
    mutating func close() {
        isClosed = true
        pending.removeAll()
        head = 0
    }
}

extension Sink {
    /// Delivers `first` (from `Outbox.push`) and then each event `next` pops, until `next`
    /// returns `nil`; call it with no lock held. A terminal event ends the loop and disposes
    /// the sink (the outbox stays marked as delivering, so nothing follows it).
    @inlinable
    final func deliver(_ first: Event<Output>?, next: () -> Event<Output>?) {
        var event = first
        while let current = event {
            downstream.on(current)
            if current.isStopEvent {
                dispose()
                return
            }
            event = next()
        }
    }
}
