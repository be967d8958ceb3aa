extension ExchangeMachine {
    // What the driver reads off the machine to perform an action; none of it changes the machine.

    /// Whether the request's method may be sent twice (a stale connection's one retry).
    var idempotent: Bool { SocketRequestEncoding.isIdempotent(method) }

    /// Whether the request's head asks for a compressed body (never for a download file, nor
    /// with decompression disabled).
    var acceptsCompression: Bool { !downloadsToFile && request.asksForCompression }

    /// Whether the phase is `.sending` (any step of it).
    var isSending: Bool {
        if case .sending = phase { return true }
        return false
    }

    /// Whether a connection is in use and read: sending or receiving.
    var readsConnection: Bool {
        phase == .receiving || isSending
    }

    /// Whether the socket may be written now: the head or a piece is going out (not while the
    /// body is opened, its head is due or a piece is read).
    var writable: Bool {
        guard case .sending(let upload) = phase else { return false }
        return upload.writable
    }

    /// Whether the output going out (the head, or a piece of the body) has another piece after
    /// it: it may stay queued on the channel while the next is taken.
    var piecesFollow: Bool {
        guard case .sending(let upload) = phase else { return false }
        return upload.piecesFollow
    }

    /// Whether the download's progress is reported for the bytes received (not a redirect's).
    var reportsDownloadProgress: Bool { redirect == nil }
}
