import Foundation
import HTTPWire
import EventLoopIO

/// Receiving: reading and parsing the answer, and the download file.
extension SocketExchange {
    func socketReadable() {
        loop.assertInLoop()
        guard let socket, machine.readsConnection else { return }
        if var body = directBodyBuffer() {
            let result = body.withUnsafeMutableBytes { socket.receive(into: $0) }
            guard case .transferred(let count) = result else { return readTransferredNothing(result) }
            touch()
            timings.bytesReceived += Int64(count)
            directRefillLimit = Self.refillLimit(after: count, into: body.count)
            body.removeLast(body.count - count)
            return receivedBody(consume body)
        }
        // Most answers fit in a few kilobytes: the buffer starts small and grows to `readChunk`
        // once a read fills it, to `bodyReadChunk` for a body streamed or written to a file.
        if readBuffer.isEmpty { readBuffer = [UInt8](repeating: 0, count: firstReadSize) }
        let result = readBuffer.withUnsafeMutableBytes { socket.receive(into: $0) }
        guard case .transferred(let count) = result else { return readTransferredNothing(result) }
        touch()
        timings.bytesReceived += Int64(count)
        if let channel = connection?.channel, channel.tls != nil {
            perform(channel.unseal(readBuffer[0..<count]))
        } else {
            received(readBuffer[0..<count])
        }
        let largest = download == nil ? readChunk : Self.bodyReadChunk
        if count == readBuffer.count, count < largest {
            readBuffer = [UInt8](repeating: 0, count: min(largest, count * 4))
        }
    }

    /// A read found no bytes: none yet, the peer's end, or a failure.
    private func readTransferredNothing(_ result: TCPSocket.IOResult) {
        switch result {
        case .transferred:
            preconditionFailure("readTransferredNothing(.transferred): a read with bytes is its caller's")
        case .wouldBlock:
            run(machine.readFoundNothing())
        case .endOfStream:
            if let channel = connection?.channel, channel.tls != nil {
                perform(channel.unsealEndOfStream())
            } else {
                endOfStream(.complete)
            }
        case .failed(let number):
            run(machine.readFailed(errno: number))
        }
    }

    /// The read size for a body that leaves the exchange as it comes (a streamed response, a
    /// download file): each read is one chunk handed on, so larger reads wake its consumer less.
    static var bodyReadChunk: Int { 1_048_576 }

    /// The fewest body bytes still expected for a read straight into a spare buffer: the last
    /// few of a body go through `readBuffer`.
    static var directReadMinimum: Int { 16_384 }

    /// Whether the next body bytes may be read straight into buffers the sink gives back, to be
    /// handed on uncopied: they go to such a sink (a streamed response) over plain http, and at least `directReadMinimum` of the bytes to come are body bytes taken as they
    /// are (`HTTPResponseParser.plainBodyBytesExpected`: a `Content-Length` or close-delimited body).
    private var readsBodyDirectly: Bool {
        download?.givesBuffersBack == true && parser.plainBodyBytesExpected >= Self.directReadMinimum
            && connection?.channel.tls == nil
    }

    /// How far a spare buffer may be grown back after a read straight into one that brought
    /// `count` bytes into `room`: to the whole read size after a read of a quarter of it, to
    /// twice what came after one that filled its buffer, else not past what came. Growing costs
    /// a copy of the bytes added, so a peer sending little at a time is read into the buffers as
    /// they are rather than into ones refilled for it.
    static func refillLimit(after count: Int, into room: Int) -> Int {
        if count >= bodyReadChunk / 4 { return bodyReadChunk }
        return count == room ? min(bodyReadChunk, count * 2) : count
    }

    /// A buffer the sink gave back, sized for the next read of body bytes (up to `bodyReadChunk`
    /// and what is expected; one shrunk below half of that by a short read grown back as far as
    /// `directRefillLimit`), when they may be read straight into it; nil when they may not or no
    /// buffer waits (the read then goes through `readBuffer`, and the bytes are copied).
    private func directBodyBuffer() -> [UInt8]? {
        guard readsBodyDirectly, let download else { return nil }
        var buffer = download.spareBuffer()
        guard buffer.capacity > 0 else { return nil }
        let size = min(parser.plainBodyBytesExpected, Self.bodyReadChunk)
        if buffer.count > size {
            buffer.removeLast(buffer.count - size)
        } else if buffer.count < size / 2 {
            // A buffer shrunk by a short read is read into as it is down to half the size, so a
            // run of short reads does not refill each one; below that it is grown by bytes the
            // read overwrites (an array has no uninitialized room), copied from `readBuffer` at
            // the speed of a copy rather than element by element.
            let target = min(size, directRefillLimit)
            if readBuffer.isEmpty { readBuffer = [UInt8](repeating: 0, count: firstReadSize) }
            while buffer.count < target { buffer.append(contentsOf: readBuffer.prefix(target - buffer.count)) }
        }
        return buffer.isEmpty ? nil : buffer
    }

    /// Body bytes read straight into `body` arrived: handed on as they are.
    private func receivedBody(_ body: consuming [UInt8]) {
        machine.bytesRead()
        timings.answerArrived(at: lastActivity)
        let complete: HTTPResponse?
        do throws(HTTPWireError) {
            complete = try parser.feedBody(consume body)
        } catch {
            return run(machine.parseFailed(error))
        }
        parsed(complete, hadHead: true)
    }

    /// Response bytes arrived (read from the socket, or decrypted).
    func received(_ bytes: ArraySlice<UInt8>) {
        machine.bytesRead()
        timings.answerArrived(at: lastActivity)
        let hadHead = parser.head != nil
        let complete: HTTPResponse?
        do throws(HTTPWireError) {
            complete = try parser.feed(bytes)
        } catch {
            return run(machine.parseFailed(error))
        }
        parsed(complete, hadHead: hadHead)
    }

    /// The parser took what arrived: the body moves on, and a complete response ends the exchange.
    private func parsed(_ complete: HTTPResponse?, hadHead: Bool) {
        guard bodyParsed(hadHead: hadHead) else { return }
        guard let complete else { return }
        response = complete
        run(machine.responseComplete(keepAlive: complete.head.keepAlive && parser.framingAllowsReuse, status: complete.head.status,
                                     leftoverBytes: !parser.unusedBytes.isEmpty))
    }

    /// The peer's side ended: the socket's end of stream (a complete close), or TLS's (complete
    /// only with the peer's `close_notify`).
    func endOfStream(_ end: HTTPStreamEnd) {
        let hadHead = parser.head != nil
        do throws(HTTPWireError) {
            let complete = try parser.finishAtEndOfStream(end)
            guard bodyParsed(hadHead: hadHead) else { return }
            response = complete
            run(machine.endOfStream(.success(())))
        } catch {
            run(machine.endOfStream(.failure(error)))
        }
    }

    /// Tells the machine of a head that just arrived and of the body parsed, and moves the body
    /// where it says; false when that ended the exchange (a download file that failed).
    private func bodyParsed(hadHead: Bool) -> Bool {
        guard let head = parser.head else { return true }
        if !hadHead { machine.headReceived(status: head.status, location: head.headers["Location"]) }
        let action = machine.bodyArrived(fileFailed: download?.failure != nil)
        run(action)
        // The machine ended the exchange (a download file that failed): nothing of this read goes on.
        if case .finish = action { return false }
        reportDownloadProgress(head)
        return true
    }

    /// Puts the body bytes received so far where the machine says.
    func moveBody(_ destination: ExchangeMachine.BodyBytes) {
        switch destination {
        case .drop:
            _ = parser.takeBody()
        case .writeToFile(let create):
            // A body read straight into the sink's buffers needs none of its own.
            let bytes = parser.takeBody(reusing: readsBodyDirectly ? [] : download?.spareBuffer() ?? [])
            if create, let stream = machine.request.responseStream, let head = parser.head {
                stream.headArrived(head, url: responseURL)
                download = stream
            } else if create, let file = machine.request.downloadFile {
                download = DownloadFileWriter(file: file, queue: io)
            }
            if !bytes.isEmpty, let writer = download, writer.write(bytes) { run(machine.sinkBacklogged()) }
        }
    }

    /// Leaves the socket unread while the download file's disk (or the streamed response's
    /// consumer) catches up, and tells the machine (on the loop) once half the backlog is taken.
    /// The peer is not idle meanwhile: the channel's idle deadline goes until the reads resume.
    func pauseReading() {
        guard let connection, let writer = download else { return }
        connection.channel.setReading(false)
        connection.channel.setDeadline(nil)
        writer.resumeWhenDrained { [self, loop] in
            loop.execute { [self] in run(machine.sinkDrained()) }
        }
    }

    /// Reads the connection again after the sink caught up, idle from now on (the wait was no
    /// idleness of the peer).
    func resumeReading() {
        guard let connection else { return }
        touch()
        connection.channel.setReading(true)
        armIdleTimer()
    }

    /// The fraction of the announced `Content-Length` received; with no usable length, -1 each
    /// time body bytes arrive (Moya then reports progress 0, as for Alamofire's unknown total).
    private func reportDownloadProgress(_ head: HTTPResponseHead) {
        guard let progress = machine.request.downloadProgress, machine.reportsDownloadProgress, !isFinished,
              parser.bodyBytesReceived > 0 else { return }
        guard let text = head.headers["Content-Length"],
              let expected = Int(text.trimmingCharacters(in: .whitespaces)), expected > 0 else {
            progress(-1)
            return
        }
        progress(min(1, Double(parser.bodyBytesReceived) / Double(expected)))
    }
}

