extension Connection {
    /// What a route decided to do with its connection: a plan that the connection's machine
    /// runs on its loop, with timers and readiness instead of sleeping or blocking.
    enum Disposition: Equatable, Sendable {
        /// Write `bytes` (a complete response, or bytes that fail as one), then read the next
        /// request when `keepAlive`, else close.
        case send([UInt8], keepAlive: Bool)
        /// Write `head`, then `bodyBytes` body bytes (byte i being `i % 256`) 64 KiB at a time,
        /// each block once the previous one is out; then as `send`.
        case stream(head: [UInt8], bodyBytes: Int, keepAlive: Bool)
        /// Write `head`, then one `.` every `interval`, `bytes` times; then as `send`.
        case drip(head: [UInt8], interval: Duration, bytes: Int, keepAlive: Bool)
        /// Ask the route again after `delay` (`RouteContext.afterWait` set). When
        /// `watchingForClose`, a client that closes meanwhile ends the connection and counts in
        /// `FeedServer.abandonedImageCount` (what it sends meanwhile is kept for after the
        /// answer, up to one request's limits); otherwise nothing is read until the route answers.
        case wait(Duration, watchingForClose: Bool)
        /// Never answer: read and drop until the client closes (or the server stops).
        case hang
        /// Write `bytes` but the last `withholding` bytes that would go on the wire, then close
        /// without ending TLS (no `close_notify`): a connection cut, over TLS inside its last
        /// record when `withholding` is above 0.
        case cut([UInt8], withholding: Int)
        /// Close without an answer (over TLS, after a `close_notify`).
        case close
        /// Close with `SO_LINGER` 0, so the client sees a reset.
        case reset
    }
}
