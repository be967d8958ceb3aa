extension ExchangeMachine {
    /// The machine's events, by the name of the method that takes each.
    enum Event: String, CaseIterable, Sendable {
        case begin, leased, connectTimerFired, tlsFailed
        case bodyOpened, headPrepared, headMade, outputWritten, pieceRead, writeFailed
        case bytesRead, readFoundNothing, readFailed, parseFailed, headReceived, bodyArrived, responseComplete, endOfStream
        case sinkBacklogged, sinkDrained
        case followingRedirect, idleTimerFired, downloadClosed, overallTimerFired, cancel
    }

    /// A phase and an event.
    struct Pair: Hashable, Sendable, CustomStringConvertible {
        let event: Event
        let phase: Phase.Name

        var description: String { "\(event) in \(phase)" }
    }

    /// Every (phase, event) pair `SocketExchange` cannot produce: each stops the process in
    /// `impossible(_:)`. Every other pair is handled by name (a test drives each one). The
    /// reasons are at each `impossible` call.
    static let impossiblePairs: Set<Pair> = {
        let table: [Event: [Phase.Name]] = [
            .begin: [.waiting, .sending, .receiving],
            .leased: [.idle, .sending, .receiving],
            .connectTimerFired: [.idle, .sending, .receiving],
            .headPrepared: [.idle, .waiting, .receiving, .done],
            .headMade: [.idle, .waiting, .receiving, .done],
            .outputWritten: [.idle, .waiting, .receiving, .done],
            .followingRedirect: [.waiting, .sending, .receiving, .done],
            .idleTimerFired: [.idle],
            .downloadClosed: [.idle, .waiting, .sending, .receiving],
            .sinkBacklogged: [.idle, .waiting, .done],
            .sinkDrained: [.idle, .waiting, .sending],
        ]
        return Set(table.flatMap { event, phases in phases.map { Pair(event: event, phase: $0) } })
    }()

    /// Stops at `event` in the current phase, a pair the driver cannot produce (listed in `impossiblePairs`).
    func impossible(_ event: Event) -> Never {
        preconditionFailure("ExchangeMachine: \(Pair(event: event, phase: phase.name)) cannot happen")
    }
}
