import Foundation
import EventLoopIO
import HTTPWire

/// Every decision of one exchange, as a value: it takes what happened (the target read, a lease
/// or the failure of the connect the pool opened for it, the body opened and read, bytes written
/// and read, the response's head and end, a timer, a cancel) and returns the one action to
/// perform next. Connecting is the pool's (`ConnectionOpener`), not the exchange's, and so is
/// every TLS handshake (`ConnectionHandshake`). The sending phase carries its sub-machine
/// (`RequestBodyUpload`); `DownloadToFile` spans the redirects, each decided once, when its head
/// arrives. `SocketExchange` drives it on its loop
/// in one exhaustive `switch` (`run(_:)`), keeping only sockets, buffers, files and timer handles.
///
/// Every event switches over the phase and names each one: a pair the driver can produce (a late
/// timer, an event of a connection let go earlier in the same round: `run` re-entered, or the
/// rest of one read's TLS actions; an off-loop result after a cancel) is handled with its
/// reason; a pair it cannot is `impossible(_:)`, a `preconditionFailure` naming it, and is listed
/// in `impossiblePairs`.
///
/// One file per step, each an extension: `+Waiting` (the target, the pool's lease), `+Sending`,
/// `+TLSFailure`, `+Receiving`, `+Completing` (a whole response: delivered or redirected), `+Retry`
/// (the stale connection's one retry) and `+Ending` (timers, cancel, `finish`); the actions are in
/// `+Action`, the phases in `+Phase`, the impossible pairs in `+ImpossiblePairs`.
struct ExchangeMachine: Sendable {
    // The state beside the phase is set only by the events (the extensions, one file per step);
    // the driver reads it and never writes it.
    var phase = Phase.idle
    /// The request being sent: the caller's, then each redirect's.
    var request: HTTPClientRequest
    /// `request`'s method, upper-cased (GET when it has none).
    var method: String
    /// Where `request` goes, once read (nil before, and when it could not be read). A followed
    /// redirect keeps its hop's until the next is read: the driver gives that hop's slot back to it.
    var target: SocketRequestTarget?
    /// The most redirects followed; nil follows none (the redirect response is delivered).
    let maximumRedirects: Int?
    /// Whether the response body goes to a file or a streamed response's consumer (no
    /// compression asked for, none decoded, no size limit).
    let downloadsToFile: Bool
    /// Whether an overall deadline bounds the exchange (then it also bounds the wait for a connection).
    let hasOverallDeadline: Bool

    /// Whether the exchange holds a connection leased from the pool (one of its host's slots).
    var holdsSlot = false
    /// Whether the connection is a kept-alive one (only those are retried).
    var reused = false
    /// Whether the request was sent once more after its kept-alive connection turned out closed
    /// (it is, once at most).
    var retried = false
    /// Requests written on the current connection (1 once the head is made): only the first on
    /// a kept-alive connection is retried.
    var attempt = 0
    var receivedAny = false
    var requestAsksToClose = false
    /// The errno of a write the peer refused; the answer already sent is read first.
    var writeErrno: Int32?
    var redirects = 0
    /// The request a redirect head received asks for next (decided once, when the head arrives).
    var redirect: HTTPClientRequest?
    /// The URL whose redirect `request` follows, while a redirect is being followed.
    var redirectedFrom: URL?
    /// Counts the body readers, so that the late outcome of one given up is told apart.
    var generation = 0
    var download = DownloadToFile()

    init(request: HTTPClientRequest, maximumRedirects: Int?, hasOverallDeadline: Bool) {
        self.request = request
        self.method = request.normalizedMethod
        self.maximumRedirects = maximumRedirects
        self.downloadsToFile = request.downloadFile != nil || request.responseStream != nil
        self.hasOverallDeadline = hasOverallDeadline
    }
}
