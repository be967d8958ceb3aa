extension ExchangeMachine {
    /// Where the exchange stands; the phases that have steps of their own carry their sub-machine.
    enum Phase: Equatable, Sendable {
        /// Before the first request, or between a redirect and its next request.
        case idle
        /// Queued in the pool for a connection (which the pool may be opening), or a lease on its
        /// way to the loop.
        case waiting
        /// The request going out (a file or stream body being opened first, or read between pieces).
        case sending(RequestBodyUpload)
        /// The whole request is out (or the peer stopped taking it): only the answer is left.
        case receiving
        /// Reported, failed or cancelled: nothing follows.
        case done
    }

    /// What the pool handed over.
    enum Lease: Equatable, Sendable {
        /// A connection the pool just opened for its waiters.
        case connected
        /// A kept-alive connection that waited in the pool.
        case reused
        /// A kept-alive connection passed on by the request that read a whole answer on it.
        case handedOver
        /// The connect the pool opened while this exchange was first in line failed.
        case failed(ExchangeFailure)
    }
}

extension ExchangeMachine.Phase {
    /// The phases by name, without their sub-machines (for the table of impossible pairs).
    enum Name: String, CaseIterable, Sendable {
        case idle, waiting, sending, receiving, done
    }

    /// This phase's name.
    var name: Name {
        switch self {
        case .idle: .idle
        case .waiting: .waiting
        case .sending: .sending
        case .receiving: .receiving
        case .done: .done
        }
    }
}
