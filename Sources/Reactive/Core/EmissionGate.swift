import Locking
/// Serializes one upstream's events with terminal events that arrive from elsewhere (a timer,
/// a second sequence), without holding a lock while the observer runs.
///
/// Elements are delivered by the thread they arrive on, between `beginElement()` and
/// `endElement()`; a terminal event that arrives meanwhile waits and is handed to that thread
/// when it finishes, so nothing overlaps and nothing follows a terminal event. Only terminal
/// events, which carry no element, change threads, so the element type needs no `Sendable`.
struct EmissionGate: ~Copyable, Sendable {
    /// A terminal event without an element type.
    enum Terminal: Sendable {
        case error(any Error)
        case completed

        /// This terminal as an event of any element type.
        func event<Element>(of _: Element.Type = Element.self) -> Event<Element> {
            switch self {
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        }
    }

    struct State {
        /// Elements being delivered right now (more than one when the upstream re-enters).
        var depth = 0
        var stopped = false
        var pending: Terminal?
    }

    let state = Lock(State())

    init() {}

    /// Whether the gate has let a terminal event through (or holds one for the emitting thread).
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Starts delivering an element; `false` when the gate is stopped and the element is dropped.
    /// After `true`, the caller delivers and must call `endElement()`.
    func beginElement() -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.depth += 1
            return true
        }
    }

    /// Ends an element's delivery; returns a terminal event that arrived meanwhile, for the
    /// caller to deliver now.
    func endElement() -> Terminal? {
        state.withLock { state in
            state.depth -= 1
            guard state.depth == 0 else { return nil }
            let pending = state.pending
            state.pending = nil
            return pending
        }
    }

    /// Stops the gate with `terminal`: returns it when the caller should deliver it now, `nil`
    /// when the gate was stopped already or an element is being delivered (which then
    /// delivers it).
    func terminate(_ terminal: Terminal) -> Terminal? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            guard state.depth == 0 else {
                state.pending = terminal
                return nil
            }
            return terminal
        }
    }
}
