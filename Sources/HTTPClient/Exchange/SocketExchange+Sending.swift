import Foundation
import HTTPWire
import SocketIO

/// Sending: the head and the body (opened and read on the I/O queue for a file or stream), as fast as the socket takes it.
extension SocketExchange {
    func sendRequest() {
        guard let socket else { return }
        closeBody()
        switch upload {
        case nil:
            break
        case .bytes(let bytes):
            body = UploadBodyReader(bytes: bytes)
        case let source?:
            // A file or a caller's stream is opened on the I/O queue; the socket waits unwatched.
            machine.openingBody()
            loop.setInterest(socket, readable: false, writable: false)
            touch()
            armIdleTimer()
            let (loop, generation) = (self.loop, bodyGeneration)
            io.async { [self] in
                let opened = Result { try UploadBodyReader(source) }
                loop.execute { self.bodyOpened(opened, generation: generation) }
            }
            return
        }
        prepareRequest()
        watch(socket)
    }

    /// The upload's file or stream was opened (or failed to) on the I/O queue.
    func bodyOpened(_ opened: Result<UploadBodyReader, any Error>, generation: Int) {
        guard generation == bodyGeneration, phase == .opening, !isFinished, let socket else {
            if case .success(let reader) = opened { io.async { reader.close() } }
            return
        }
        switch opened {
        case .success(let reader):
            body = reader
            prepareRequest()
            watch(socket)
        case .failure(let error):
            giveBack(reusable: false)
            report(.failure(HTTPClientFailure(.uploadFailed(underlying: error))))
        }
    }

    /// Gives the upload reader up (closing it where it is read) and ignores its pending work.
    func closeBody() {
        bodyGeneration &+= 1
        bodyReading = false
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
        let framing: SocketRequestEncoding.BodyFraming = body.map { $0.length.map { .length($0) } ?? .chunked } ?? .length(0)
        let asksToClose: Bool
        (output, asksToClose) = SocketRequestEncoding.head(request, target: target, framing: framing,
                                                           acceptsCompression: machine.acceptsCompression)
        machine.requestPrepared(asksToClose: asksToClose)
        outputOffset = 0
        outputBodyBytes = 0
        bodyEnded = body == nil
        bodySent = 0
        let limit = request.downloadFile == nil ? configuration.maximumResponseSize : Int.max
        parser = HTTPResponseParser(requestMethod: method, maxHeaderBytes: configuration.maximumHeaderBytes, maxBodyBytes: limit)
        touch()
    }

    /// Writes until the kernel stops taking bytes or the request is out.
    func writeMore() {
        guard phase == .sending, !bodyReading, let socket else { return }
        while true {
            if outputOffset == output.count {
                reportUploadProgress()
                guard refillOutput() else { return }
                if outputOffset == output.count {
                    _ = machine.requestWritten()
                    loop.setInterest(socket, readable: true, writable: false)
                    return
                }
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

    /// Puts the next piece of the body in `output`; false when it is not there yet (a file or
    /// stream is read on the I/O queue, which calls `writeMore` again) or the exchange ended (a
    /// body read failed).
    func refillOutput() -> Bool {
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
        outputBodyBytes = 0
        guard let body, !bodyEnded else { return true }
        guard body.isInMemory else {
            readBody(body)
            return false
        }
        return bodyRead(Result { try body.next(limit: readChunk) })
    }

    /// Reads the next piece of a file or stream body on the I/O queue; the socket is watched for
    /// an early answer meanwhile, not for room to write.
    func readBody(_ reader: UploadBodyReader) {
        bodyReading = true
        if let socket { loop.setInterest(socket, readable: true, writable: false) }
        let (loop, generation, limit) = (self.loop, bodyGeneration, readChunk)
        io.async { [self] in
            let read = Result { try reader.next(limit: limit) }
            loop.execute {
                guard generation == self.bodyGeneration, self.phase == .sending, !self.isFinished, let socket = self.socket else { return }
                self.bodyReading = false
                guard self.bodyRead(read) else { return }
                self.loop.setInterest(socket, readable: true, writable: true)
                self.writeMore()
            }
        }
    }

    /// Frames a piece of the body read into `output`; false when the read failed (reported).
    func bodyRead(_ read: Result<[UInt8], any Error>) -> Bool {
        switch read {
        case .success(let bytes):
            outputBodyBytes = bytes.count
            if body?.length == nil {
                output = bytes.isEmpty ? ChunkedEncoder.end() : ChunkedEncoder.chunk(bytes)
            } else {
                output = bytes
            }
            if bytes.isEmpty { bodyEnded = true }
            return true
        case .failure(let error):
            giveBack(reusable: false)
            report(.failure(HTTPClientFailure(.uploadFailed(underlying: error))))
            return false
        }
    }

    func reportUploadProgress() {
        guard outputBodyBytes > 0 else { return }
        bodySent += Int64(outputBodyBytes)
        outputBodyBytes = 0
        guard let progress = request.uploadProgress, !isFinished else { return }
        progress(bodySent, body?.length)
    }

    /// The peer stopped taking the request. It may have answered already (413 to an upload, then
    /// closed), so the answer waiting on the socket is read before the failure is reported.
    func writeFailed(_ number: Int32) {
        perform(machine.writeFailed(errno: number))
    }
}
