import EventLoopIO

extension HTTPClientTimings {
    /// One Happy Eyeballs attempt of a new connection: the address tried, when it started and
    /// ended, and how.
    public struct ConnectAttempt: Sendable, Equatable {
        /// How an attempt ended.
        public enum Outcome: Sendable, Equatable {
            /// It connected: the connection the request used.
            case connected
            /// It failed (refused, unreachable), with the system's errno when one was given.
            case failed(errno: Int32?)
            /// Another attempt connected first: this one was closed.
            case abandoned
            /// The connect timeout passed with it still under way.
            case timedOut
        }

        /// The address tried (`127.0.0.1:8080`, `[::1]:443`, a Unix socket's path).
        public var address: String
        /// When the attempt started.
        public var started: ContinuousClock.Instant {
            get { startedAt.instant }
            set { startedAt = MonotonicTime(newValue) }
        }
        /// When it ended (connected, failed, or closed); nil while under way.
        public var ended: ContinuousClock.Instant? {
            get { endedAt?.instant }
            set { endedAt = newValue.map(MonotonicTime.init) }
        }
        /// How it ended; nil while under way.
        public var outcome: Outcome?
        /// `started` and `ended` as the package keeps them (see `MonotonicTime`).
        var startedAt: MonotonicTime
        var endedAt: MonotonicTime?

        /// An attempt as given.
        public init(address: String, started: ContinuousClock.Instant, ended: ContinuousClock.Instant? = nil, outcome: Outcome? = nil) {
            self.init(address: address, startedAt: MonotonicTime(started), endedAt: ended.map(MonotonicTime.init), outcome: outcome)
        }

        /// An attempt started at `startedAt`.
        init(address: String, startedAt: MonotonicTime, endedAt: MonotonicTime? = nil, outcome: Outcome? = nil) {
            self.address = address
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.outcome = outcome
        }

        /// From `started` to `ended`, once it ended.
        public var duration: Duration? {
            endedAt.map { $0 - startedAt }
        }
    }
}
