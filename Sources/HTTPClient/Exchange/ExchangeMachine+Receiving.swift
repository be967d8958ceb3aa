import Foundation
import HTTPWire

/// Receiving: the answer's bytes, head, body and end, and the reads that fail or find nothing.
extension ExchangeMachine {
    /// Bytes of the answer arrived (fed to the parser by the driver).
    mutating func bytesRead() {
        switch phase {
        case .sending, .receiving:
            receivedAny = true
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            break
        }
    }

    /// A read found nothing: after a failed write nothing more will come.
    mutating func readFoundNothing() -> Action {
        switch phase {
        case .receiving:
            switch writeErrno {
            case let errno?:
                return lost(errno: errno)
            case nil:
                // Woken for nothing while the answer is awaited: the next readiness reads again.
                return .none
            }
        case .sending:
            // Woken for nothing (the peer's bytes went in an earlier read): the next wakes it.
            return .none
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    /// A read failed with `errno`.
    mutating func readFailed(errno: Int32) -> Action {
        switch phase {
        case .sending, .receiving:
            return lost(errno: writeErrno ?? errno)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    /// The parser refused the bytes read.
    mutating func parseFailed(_ error: HTTPWireError) -> Action {
        switch phase {
        case .sending, .receiving:
            return finish(.fail(.response(error)), disposal: .close)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    /// A response head arrived: decides, once, whether it is a redirect the client follows.
    mutating func headReceived(status: Int, location: String?) {
        switch phase {
        case .sending, .receiving:
            redirect = maximumRedirects != nil && RedirectPolicy.statuses.contains(status)
                ? RedirectPolicy.nextRequest(after: request, status: status, location: location) : nil
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            break
        }
    }

    /// Body bytes of the current response were parsed (none when only its head arrived);
    /// `fileFailed` when the download file met an error so far. A body in memory stays with the
    /// parser; a download's goes to its file, made with the final response's first bytes.
    mutating func bodyArrived(fileFailed: Bool) -> Action {
        switch phase {
        case .sending, .receiving:
            if !downloadsToFile {
                // A body in memory stays with the parser until the response is complete.
                return .none
            }
            guard redirect == nil else { return .bodyBytes(.drop) }
            switch download.bodyArrived(fileFailed: fileFailed) {
            case .createAndWrite?: return .bodyBytes(.writeToFile(create: true))
            case .write?: return .bodyBytes(.writeToFile(create: false))
            case .failDownload?: return finish(.fail(.downloadFailed), disposal: .close)
            case .report?, nil: return .none
            }
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    /// A whole response arrived on a connection that says whether it can serve another request.
    mutating func responseComplete(keepAlive: Bool, status: Int, leftoverBytes: Bool) -> Action {
        switch phase {
        case .sending:
            // An early answer (a 413 during an upload): the connection is not reused.
            return completed(reusable: false)
        case .receiving:
            return completed(reusable: writeErrno == nil && keepAlive && status != 101 && !leftoverBytes && !requestAsksToClose)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    /// The peer closed the connection; `parsed` is what the parser made of it (a response
    /// delimited by the close, or why none is).
    mutating func endOfStream(_ parsed: Result<Void, HTTPWireError>) -> Action {
        switch phase {
        case .sending, .receiving:
            switch parsed {
            case .success:
                return completed(reusable: false)
            case .failure(let error):
                if case .truncatedHead(0) = error, retryApplies { return reconnect() }
                return finish(.fail(writeErrno.map { .connectionLost(errno: $0) } ?? .response(error)), disposal: .close)
            }
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }
}

/// Backpressure: the body's sink (a download's file, a streamed response's consumer) falling
/// behind and catching up.
extension ExchangeMachine {
    /// The body's sink took bytes and holds more than it wants (its disk or consumer is slow):
    /// whether the socket is left unread until it catches up.
    mutating func sinkBacklogged() -> Action {
        switch phase {
        case .receiving:
            return .pauseReading
        case .sending:
            // An early answer while the request is still written: pausing the reads would stop
            // the writing too (the channel watches one socket), so the sink waits.
            return .none
        case .idle, .waiting, .done:
            // The driver writes to the sink only as `bodyArrived` says, in sending or receiving,
            // and nothing between changes the phase.
            impossible(.sinkBacklogged)
        }
    }

    /// The body's sink caught up with half its backlog after `sinkBacklogged` paused the reads.
    mutating func sinkDrained() -> Action {
        switch phase {
        case .receiving:
            return .resumeReading
        case .done:
            // The exchange ended (failed, timed out, cancelled) before the sink caught up.
            return .none
        case .idle, .waiting, .sending:
            // Reads pause only in receiving, with a sink made for the final response (a
            // followed redirect's body is dropped), whose body bytes rule out the stale
            // connection's retry: from there the exchange only ends.
            impossible(.sinkDrained)
        }
    }
}
