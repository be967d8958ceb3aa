import Foundation
import HTTPWire
import EventLoopIO

/// Sending: the head and the body (opened and read on the I/O queue for a file or stream), as
/// fast as the socket takes it.
extension SocketExchange {
    /// Starts the attempt's body: opens a file or stream off the loop first, or sends the head.
    func startBody(_ start: ExchangeMachine.BodyStart) {
        switch start {
        case .open(let generation):
            guard let source = machine.request.body else { return }
            io.async { [self] in
                let opened = Result { try UploadBodyReader(source) }
                onItsLoop { self.bodyOpened(opened, generation: generation) }
            }
        case .sendHead:
            if case .bytes(let bytes)? = machine.request.body { body = UploadBodyReader(bytes: bytes) }
            sendHead()
        }
    }

    /// The upload's file or stream was opened (or failed to) on the I/O queue.
    private func bodyOpened(_ opened: Result<UploadBodyReader, any Error>, generation: Int) {
        applyPendingCancel()
        switch opened {
        case .success(let reader):
            let action = machine.bodyOpened(generation: generation, failure: nil)
            if case .discardReader = action {
                // Opened for an attempt given up (or a cancelled exchange): closed where it was opened.
                io.async { reader.close() }
                return
            }
            body = reader
            run(action)
        case .failure(let error):
            run(machine.bodyOpened(generation: generation, failure: ExchangeFailure.UploadError(underlying: error)))
        }
    }

    /// Makes the request's head (framed for `body`) and a parser for its answer, and writes. Most
    /// requests go out in one write: the socket is watched for room only once a write fills it.
    func sendHead() {
        guard let target = machine.target, socket != nil else { return }
        let framing = machine.headPrepared(hasBody: body != nil, length: body?.length)
        let asksToClose: Bool
        (output, asksToClose) = SocketRequestEncoding.head(machine.request, target: target, framing: framing,
                                                           acceptsCompression: machine.acceptsCompression, reusing: takeOutput())
        machine.headMade(asksToClose: asksToClose)
        outputOffset = 0
        let limit = machine.downloadsToFile ? Int.max : configuration.maximumResponseSize
        parser = HTTPResponseParser(requestMethod: machine.method, maxHeaderBytes: configuration.maximumHeaderBytes, maxBodyBytes: limit)
        response = nil
        touch()
        writeMore()
    }

    func socketWritable() {
        loop.assertInLoop()
        writeMore()
    }

    /// Writes until the kernel stops taking bytes or the request is out: the request's bytes
    /// are queued on the channel (through TLS for `https`) behind what it holds already (TLS
    /// records, bytes queued while the connection was parked) and flushed. Plain body pieces
    /// that have another after them are taken as they come, without a flush between, until
    /// `writeBatch` bytes wait: one `sendmsg` then writes several. The channel watches for room
    /// while bytes wait, and for reading only once they are out.
    func writeMore() {
        guard let channel = connection?.channel else { return }
        while true {
            if outputOffset < output.count {
                if channel.tls == nil {
                    channel.queue(output[outputOffset...])
                } else if let failure = channel.seal(output[outputOffset...]) {
                    // Records queued; or none yet (TLS waits for the peer's bytes, which `unseal`
                    // turns into the records); or a failure.
                    outputOffset = output.count
                    return run(machine.tlsFailed(.tls(failure)))
                }
                outputOffset = output.count
            }
            if channel.tls == nil, channel.pendingWriteCount < Self.writeBatch, machine.piecesFollow {
                // The piece is the channel's now: the next is read (a chunk read ahead at once),
                // and goes behind it unless it must be read off the loop.
                output = []
                outputOffset = 0
                run(machine.outputWritten())
                if outputOffset < output.count { continue }
            }
            let queued = channel.pendingWriteCount
            switch channel.flush() {
            case .done:
                sent(queued)
            case .wouldBlock:
                sent(queued - channel.pendingWriteCount)
                return
            case .failed(let number):
                run(machine.writeFailed(errno: number))
                return
            }
            // Nothing more to write for now: watched for reading only.
            guard machine.writable else { return }
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
            // Goes on while the machine lets the socket be written: a piece read now (the
            // body's last, empty, piece included), until the request is out or a piece is
            // read off the loop.
            run(machine.outputWritten())
        }
    }

    /// The bytes of body pieces queued on a plain channel before one flush writes them together.
    static let writeBatch = 1024 * 1024

    /// Counts `count` bytes the socket took (activity, for the idle timer).
    private func sent(_ count: Int) {
        guard count > 0 else { return }
        timings.bytesSent += Int64(count)
        touch()
    }

    /// Goes on after an output all written, as the machine says.
    func perform(_ next: ExchangeMachine.NextPiece) {
        switch next {
        case .readNow(let generation):
            guard let body else { return }
            pieceRead(Result { try body.next(limit: readChunk) }, generation: generation)
        case .readOffLoop(let generation):
            guard let body else { return }
            // A chunk read ahead goes out at once, as a piece in memory does.
            if let ready = body.readyChunk() { return pieceRead(ready, generation: generation) }
            // The socket is watched for an early answer meanwhile (its queue is out).
            connection?.channel.setReading(true)
            body.read(limit: readChunk, on: io) { [self] read in
                onItsLoop { [self] in
                    pieceRead(read, generation: generation)
                    guard !output.isEmpty else { return }
                    writeMore()
                }
            }
        case .awaitAnswer:
            connection?.channel.setReading(true)
        }
    }

    /// A piece of the body was read (or its read failed).
    private func pieceRead(_ read: Result<[UInt8], any Error>, generation: Int) {
        applyPendingCancel()
        run(machine.pieceRead(read.mapError { ExchangeFailure.UploadError(underlying: $0) }, generation: generation))
    }

    /// Gives the upload reader up (closing it where it is read).
    func closeBody() {
        guard let body else { return }
        self.body = nil
        if body.isInMemory {
            body.close()
        } else {
            io.async { body.close() }
        }
    }

    func reportUploadProgress(_ sent: Int64) {
        guard let progress = machine.request.uploadProgress, !isFinished else { return }
        progress(sent, body?.length)
    }
}
