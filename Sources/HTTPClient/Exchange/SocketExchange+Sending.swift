import Foundation
import HTTPWire
import EventLoopIO

/// Sending: the head and the body (opened and read on the I/O queue for a file or stream), as fast as the socket takes it.
extension SocketExchange {
    func sendRequest() {
        guard let socket else { return }
        closeBody()
        let source: RequestBodyUpload.Source = switch upload {
        case nil: .none
        case .bytes: .inMemory
        case _?: .offLoop
        }
        let action = bodyUpload.attemptStarted(source)
        switch action {
        case .open(let generation):
            guard let source = upload else { return }
            // The socket waits unwatched while the file or stream is opened.
            machine.openingBody()
            loop.setInterest(socket, readable: false, writable: false)
            touch()
            armIdleTimer()
            let loop = self.loop
            io.async { [self] in
                let opened = Result { try UploadBodyReader(source) }
                loop.execute { self.bodyOpened(opened, generation: generation) }
            }
        case .sendHead:
            if case .bytes(let bytes) = upload { body = UploadBodyReader(bytes: bytes) }
            prepareRequest()
            watch(socket)
        default:
            assertionFailure("an attempt opens its body or sends its head, not \(action)")
        }
    }

    /// The upload's file or stream was opened (or failed to) on the I/O queue.
    func bodyOpened(_ opened: Result<UploadBodyReader, any Error>, generation: Int) {
        let reader = try? opened.get()
        let action = bodyUpload.opened(generation: generation, succeeded: reader != nil,
                                       cancelled: isFinished || phase != .opening)
        switch (action, opened) {
        case (.sendHead?, _):
            body = reader
            prepareRequest()
            if let socket { watch(socket) }
        case (.failUpload?, .failure(let error)):
            failUpload(error)
        case (.discard?, _):
            if let reader { io.async { reader.close() } }
        default:
            break
        }
    }

    /// Reports the upload's file or stream failing, after giving the connection back unreused.
    func failUpload(_ error: any Error) {
        giveBack(reusable: false)
        report(.failure(HTTPClientFailure(.uploadFailed(underlying: error))))
    }

    /// Gives the upload reader up (closing it where it is read) and ignores its pending work.
    func closeBody() {
        bodyUpload.abandon()
        guard let body else { return }
        self.body = nil
        if body.isInMemory {
            body.close()
        } else {
            io.async { body.close() }
        }
    }

    /// Arms the idle timer, watches `socket` and writes what is left of the request.
    func watch(_ socket: TCPSocket) {
        armIdleTimer()
        loop.register(socket, readable: true, writable: true, handler: self)
        writeMore()
    }

    /// Makes the request's head (framed for `body`, opened by the caller) and a parser for its
    /// answer, and counts the attempt; touches no loop state.
    func prepareRequest() {
        guard let target else { return }
        let framing = bodyUpload.headPrepared(hasBody: body != nil, length: body?.length)
        let asksToClose: Bool
        (output, asksToClose) = SocketRequestEncoding.head(request, target: target, framing: framing,
                                                           acceptsCompression: machine.acceptsCompression)
        machine.requestPrepared(asksToClose: asksToClose)
        outputOffset = 0
        let limit = request.downloadFile == nil ? configuration.maximumResponseSize : Int.max
        parser = HTTPResponseParser(requestMethod: method, maxHeaderBytes: configuration.maximumHeaderBytes, maxBodyBytes: limit)
        touch()
    }

    /// Writes until the kernel stops taking bytes or the request is out.
    func writeMore() {
        guard phase == .sending, bodyUpload.writable, let socket else { return }
        while true {
            if outputOffset == output.count {
                guard refillOutput(socket) else { return }
                continue
            }
            let result = output.withUnsafeBytes { socket.sendSome(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            switch result {
            case .transferred(let count):
                outputOffset += count
                touch()
            case .wouldBlock, .endOfStream:
                return
            case .failed(let number):
                writeFailed(number)
                return
            }
        }
    }

    /// Performs what follows an output all written; true when `output` holds a new piece to
    /// write, false when the request is out, a piece is read off the loop (which calls
    /// `writeMore` again) or the exchange ended (a body read failed).
    func refillOutput(_ socket: TCPSocket) -> Bool {
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
        for action in bodyUpload.outputWritten() {
            switch action {
            case .reportProgress(let sent):
                reportUploadProgress(sent)
            case .requestWritten:
                _ = machine.requestWritten()
                loop.setInterest(socket, readable: true, writable: false)
                return false
            case .readNow:
                guard let body else { return false }
                return pieceRead(Result { try body.next(limit: readChunk) }, generation: bodyUpload.generation)
            case .readOffLoop(let generation):
                if let body { readBody(body, generation: generation) }
                return false
            default:
                assertionFailure("\(action) does not follow a written output")
            }
        }
        return false
    }

    /// Reads the next piece of a file or stream body on the I/O queue; the socket is watched for
    /// an early answer meanwhile, not for room to write.
    func readBody(_ reader: UploadBodyReader, generation: Int) {
        if let socket { loop.setInterest(socket, readable: true, writable: false) }
        let (loop, limit) = (self.loop, readChunk)
        io.async { [self] in
            let read = Result { try reader.next(limit: limit) }
            loop.execute {
                guard self.pieceRead(read, generation: generation, cancelled: self.isFinished || self.phase != .sending),
                      let socket = self.socket else { return }
                self.loop.setInterest(socket, readable: true, writable: true)
                self.writeMore()
            }
        }
    }

    /// Puts a piece of the body read (framed) in `output`; false when the read failed (reported)
    /// or belongs to an attempt given up.
    func pieceRead(_ read: Result<[UInt8], any Error>, generation: Int, cancelled: Bool = false) -> Bool {
        switch (bodyUpload.pieceRead(try? read.get(), generation: generation, cancelled: cancelled), read) {
        case (.write(let framed)?, _):
            output = framed
            return true
        case (.failUpload?, .failure(let error)):
            failUpload(error)
            return false
        default:
            return false
        }
    }

    func reportUploadProgress(_ sent: Int64) {
        guard let progress = request.uploadProgress, !isFinished else { return }
        progress(sent, body?.length)
    }

    /// The peer stopped taking the request. It may have answered already (413 to an upload, then
    /// closed), so the answer waiting on the socket is read before the failure is reported.
    func writeFailed(_ number: Int32) {
        perform(machine.writeFailed(errno: number))
    }
}
