import Foundation
import HTTPWire
import EventLoopIO

/// Receiving: reading and parsing the answer, a stale connection's one retry, and the download file.
extension SocketExchange {
    func socketWritable() {
        switch machine.writable() {
        case .finishConnect?:
            if let socket { connectionFinished(socket) }
        case .writeMore?:
            writeMore()
        default:
            break
        }
    }

    func socketReadable() {
        guard phase == .sending || phase == .receiving, let socket else { return }
        // Most answers fit in a few kilobytes: the buffer starts small (a zeroed 64 KB buffer for
        // every request was 3% of the CPU) and grows to `readChunk` once a read fills it.
        if readBuffer.isEmpty { readBuffer = [UInt8](repeating: 0, count: firstReadSize) }
        let result = readBuffer.withUnsafeMutableBytes { socket.receive(into: $0) }
        switch result {
        case .transferred(let count):
            machine.bytesRead()
            touch()
            received(readBuffer[0..<count])
            if count == readBuffer.count, count < readChunk {
                readBuffer = [UInt8](repeating: 0, count: min(readChunk, count * 4))
            }
        case .wouldBlock:
            // After a failed write nothing more will come that the kernel does not already hold.
            if let action = machine.readFoundNothing() { perform(action) }
        case .endOfStream:
            endOfStream()
        case .failed(let number):
            perform(machine.readFailed(errno: number))
        }
    }

    func received(_ bytes: ArraySlice<UInt8>) {
        let response: HTTPResponse?
        do throws(HTTPWireError) {
            response = try parser.feed(bytes)
        } catch {
            return perform(machine.parseFailed(error))
        }
        guard writeBodyToFile() else { return }
        reportDownloadProgress()
        guard let response else { return }
        let reusable = machine.reusable(keepAlive: response.head.keepAlive, status: response.head.status,
                                        leftoverBytes: !parser.unusedBytes.isEmpty)
        completed(response, reusable: reusable)
    }

    func endOfStream() {
        do throws(HTTPWireError) {
            let response = try parser.finishAtEndOfStream()
            guard writeBodyToFile() else { return }
            completed(response, reusable: false)
        } catch {
            machine.endOfStream(.failure(error), redirectIdempotent: nil).forEach(perform)
        }
    }

    /// The machine's answer to a failure or a timer: one of the actions that need no response.
    func perform(_ action: ExchangeStateMachine.Action) {
        switch action {
        case .fail(let failure):
            fail(clientError(failure))
        case .retryOnFreshConnection:
            // A kept-alive connection the server had closed before this request.
            cancelIdleTimer()
            if let stale = socket {
                loop.deregister(stale)
                stale.close()
            }
            socket = nil
            connect()
        case .rearmIdleTimer:
            armIdleTimer()
        case .readAfterFailedWrite:
            if let socket { loop.setInterest(socket, readable: true, writable: false) }
            socketReadable()
        default:
            assertionFailure("\(action) needs a response or a lease")
        }
    }

    /// The error a caller sees for the machine's `failure`, naming the host and the deadline's length.
    func clientError(_ failure: ExchangeStateMachine.Failure) -> HTTPClientError {
        switch failure {
        case .timedOut(.connect): timedOut(.connect, after: configuration.connectTimeout)
        case .timedOut(.idle): timedOut(.idle, after: idleTimeout)
        case .timedOut(.overall): timedOut(.overall, after: configuration.overallDeadline ?? .zero)
        case .connectionLost(let number): .connectionLost(errno: number)
        case .response(let wire): HTTPClientError(wire)
        }
    }

    /// Moves the body received so far to the download file; false when writing failed (reported).
    /// The body of a redirect this exchange follows is dropped: the file holds the final body only.
    func writeBodyToFile() -> Bool {
        guard let file = request.downloadFile, parser.head != nil else { return true }
        let bytes = parser.takeBody()
        guard machine.bodyGoesToFile(headIsFollowedRedirect: headIsFollowedRedirect) else { return true }
        let failure = download?.failure
        switch (fileDownload.bodyArrived(fileFailed: failure != nil), failure) {
        case (.createAndWrite?, _):
            let writer = DownloadFileWriter(file: file, queue: io)
            download = writer
            if !bytes.isEmpty, writer.write(bytes) { pauseReadingForDisk(writer) }
        case (.write?, _):
            if !bytes.isEmpty, let writer = download, writer.write(bytes) { pauseReadingForDisk(writer) }
        case (.failDownload?, let error?):
            giveBack(reusable: false)
            report(.failure(HTTPClientFailure(.downloadFailed(underlying: error))))
            return false
        default:
            return false
        }
        return true
    }

    /// Leaves the socket unread while the download file's disk catches up, and reads again
    /// (on the loop) once half the backlog is written. Not while the request is still being
    /// written (an early answer), which would stop the writing too.
    private func pauseReadingForDisk(_ writer: DownloadFileWriter) {
        guard phase == .receiving, let socket else { return }
        loop.setInterest(socket, readable: false, writable: false)
        writer.resumeWhenDrained { [self, loop] in
            loop.execute { [self] in
                guard !isFinished, phase == .receiving, let current = self.socket, current === socket else { return }
                touch()
                loop.setInterest(current, readable: true, writable: false)
            }
        }
    }

    /// Whether the head received is a redirect that `completed` will follow.
    var headIsFollowedRedirect: Bool {
        guard let head = parser.head, RedirectPolicy.statuses.contains(head.status) else { return false }
        return RedirectPolicy.nextRequest(after: request, status: head.status, location: head.headers["Location"]) != nil
    }

    func reportDownloadProgress() {
        guard let progress = request.downloadProgress, !headIsFollowedRedirect, let text = parser.head?.headers["Content-Length"],
              let expected = Int(text.trimmingCharacters(in: .whitespaces)), expected > 0, !isFinished else { return }
        progress(min(1, Double(parser.bodyBytesReceived) / Double(expected)))
    }
}
