import Reactive

/// The state machine of one blocking wait: the sequence's events and the end of the wait go in,
/// whether the wait is over comes out. It keeps the elements that count (those the predicate
/// accepted) and, once over, ignores everything: elements after an error, a timeout that lost
/// the race to completion, events that were already under way when the subscription was disposed.
struct BlockingCollection<Element: Sendable>: Sendable {
    /// Where the wait is.
    enum Phase: Sendable {
        case collecting
        case completed
        case failed(any Error)
    }

    /// What happened.
    enum Input: Sendable {
        /// An element that counts.
        case element(Element)
        /// The sequence, or the predicate, failed.
        case failed(any Error)
        /// The sequence completed.
        case completed
        /// The waiter's deadline passed first.
        case timedOut
    }

    /// What the driver does.
    enum Action: Equatable {
        case none
        /// Dispose the subscription and wake the waiter: the result is ready.
        case finish
    }

    private(set) var elements: [Element] = []
    private(set) var phase = Phase.collecting
    /// The number of elements after which the wait is over (`first()`: 1, `single()`: 2).
    let limit: Int?

    init(limit: Int?) {
        self.limit = limit
    }

    var isOver: Bool {
        if case .collecting = phase { return false }
        return true
    }

    /// The result once over.
    var result: MaterializedSequenceResult<Element>? {
        switch phase {
        case .collecting: return nil
        case .completed: return .completed(elements: elements)
        case .failed(let error): return .failed(elements: elements, error: error)
        }
    }

    mutating func handle(_ input: Input) -> Action {
        switch (phase, input) {
        case (.collecting, .element(let element)):
            elements.append(element)
            if let limit, elements.count >= limit {
                phase = .completed
                return .finish
            }
            return .none
        case (.collecting, .failed(let error)):
            phase = .failed(error)
            return .finish
        case (.collecting, .completed):
            phase = .completed
            return .finish
        case (.collecting, .timedOut):
            phase = .failed(ReactiveError.timeout)
            return .finish
        case (.completed, .element), (.completed, .failed), (.completed, .completed), (.completed, .timedOut),
             (.failed, .element), (.failed, .failed), (.failed, .completed), (.failed, .timedOut):
            return .none
        }
    }
}
