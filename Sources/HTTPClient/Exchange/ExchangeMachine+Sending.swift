import HTTPWire

/// Sending: each attempt's head and body, through its `RequestBodyUpload`, until the request is out
/// or the peer stops taking it.
extension ExchangeMachine {
    mutating func startAttempt() -> Action {
        var upload = RequestBodyUpload()
        generation &+= 1
        let source: RequestBodyUpload.Source = switch request.body {
        case nil: .none
        case .bytes: .inMemory
        case _?: .offLoop
        }
        let start = upload.attemptStarted(source, generation: generation)
        phase = .sending(upload)
        return .send(body: start)
    }

    /// The upload's file or stream was opened for `generation` (or failed to, with `failure`);
    /// one opened for an attempt given up, or after the exchange ended, is discarded.
    mutating func bodyOpened(generation: Int, failure: ExchangeFailure.UploadError?) -> Action {
        switch phase {
        case .sending(var upload) where generation == self.generation:
            let action = upload.opened(succeeded: failure == nil)
            phase = .sending(upload)
            switch (action, failure) {
            case (.sendHead, _): return .sendHead
            case (.failUpload, let failure?): return finish(.fail(.uploadFailed(failure)))
            case (.failUpload, nil): preconditionFailure("RequestBodyUpload: an opened body failed")
            }
        case .idle, .waiting, .sending, .receiving, .done:
            // Opened on the I/O queue for an attempt given up since (a reconnect, a redirect, an
            // early answer, the end): an open reader is closed, a failed one forgotten.
            return failure == nil ? .discardReader : .none
        }
    }

    /// The head is being made for a new attempt: how it frames the body (`length` nil when
    /// unknown). `headMade` follows.
    mutating func headPrepared(hasBody: Bool, length: Int64?) -> SocketRequestEncoding.BodyFraming {
        attempt += 1
        requestAsksToClose = false
        receivedAny = false
        writeErrno = nil
        redirect = nil
        switch phase {
        case .sending(var upload):
            let framing = upload.headPrepared(hasBody: hasBody, length: length)
            phase = .sending(upload)
            return framing
        case .idle, .waiting, .receiving, .done:
            // The driver makes a head only as the machine says (`send`'s `.sendHead`, or
            // `.sendHead` after the body opened), both in sending.
            impossible(.headPrepared)
        }
    }

    /// The head was made; `asksToClose` when it says `Connection: close` (the connection is then
    /// not pooled after the answer).
    mutating func headMade(asksToClose: Bool) {
        switch phase {
        case .sending:
            requestAsksToClose = asksToClose
        case .idle, .waiting, .receiving, .done:
            // Follows `headPrepared` at once.
            impossible(.headMade)
        }
    }

    /// Everything in the output went out.
    mutating func outputWritten() -> Action {
        switch phase {
        case .sending(var upload):
            let (progress, next) = upload.outputWritten()
            switch next {
            case .readNow:
                phase = .sending(upload)
                return .outputWritten(progress: progress, next: .readNow(generation: generation))
            case .readOffLoop:
                phase = .sending(upload)
                return .outputWritten(progress: progress, next: .readOffLoop(generation: generation))
            case .requestWritten:
                phase = .receiving
                return .outputWritten(progress: progress, next: .awaitAnswer)
            }
        case .idle, .waiting, .receiving, .done:
            // The driver asks only while the machine says the socket may be written (`writable`).
            impossible(.outputWritten)
        }
    }

    /// A piece was read for `generation` (empty at the end), or its read failed. One read for
    /// an attempt given up, or after the exchange ended, is not written.
    mutating func pieceRead(_ read: Result<[UInt8], ExchangeFailure.UploadError>, generation: Int) -> Action {
        switch phase {
        case .sending(var upload) where generation == self.generation:
            let action = upload.pieceRead(try? read.get())
            phase = .sending(upload)
            switch (action, read) {
            case (.write(let framed), _): return .write(framed)
            case (.failUpload, .failure(let failure)): return finish(.fail(.uploadFailed(failure)))
            case (.failUpload, .success): preconditionFailure("RequestBodyUpload: a piece read failed")
            }
        case .idle, .waiting, .sending, .receiving, .done:
            // Read on the I/O queue for an attempt given up since (a reconnect, a redirect, an
            // early answer, the end): not written.
            return .none
        }
    }

    /// The peer stopped taking the request: its answer may be waiting already.
    mutating func writeFailed(errno: Int32) -> Action {
        switch phase {
        case .sending:
            writeErrno = errno
            phase = .receiving
            return .readAfterFailedWrite
        case .receiving:
            // A TLS record after the request (an answer to the peer's post-handshake message):
            // the reads that follow tell how the answer ends.
            return .none
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }
}
