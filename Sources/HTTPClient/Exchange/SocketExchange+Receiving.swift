import Foundation
import HTTPWire
import SocketIO

/// Receiving: reading and parsing the answer, a stale connection's one retry, and the download file.
extension SocketExchange {
    func socketWritable() {
        switch phase {
        case .connecting:
            if let socket { connectionFinished(socket) }
        case .sending:
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
            receivedAny = true
            touch()
            received(readBuffer[0..<count])
            if count == readBuffer.count, count < readChunk {
                readBuffer = [UInt8](repeating: 0, count: min(readChunk, count * 4))
            }
        case .wouldBlock:
            // After a failed write nothing more will come that the kernel does not already hold.
            if let writeErrno { lost(writeErrno) }
        case .endOfStream:
            endOfStream()
        case .failed(let number):
            lost(writeErrno ?? number)
        }
    }

    func received(_ bytes: ArraySlice<UInt8>) {
        let response: HTTPResponse?
        do throws(HTTPWireError) {
            response = try parser.feed(bytes)
        } catch {
            return fail(HTTPClientError(error))
        }
        guard writeBodyToFile() else { return }
        reportDownloadProgress()
        guard let response else { return }
        let reusable = phase == .receiving && writeErrno == nil && response.head.keepAlive && response.head.status != 101
            && parser.unusedBytes.isEmpty && !requestAsksToClose
        completed(response, reusable: reusable)
    }

    func endOfStream() {
        do throws(HTTPWireError) {
            let response = try parser.finishAtEndOfStream()
            guard writeBodyToFile() else { return }
            completed(response, reusable: false)
        } catch {
            if case .truncatedHead(0) = error, retryOnFreshConnection() { return }
            fail(writeErrno.map { .connectionLost(errno: $0) } ?? HTTPClientError(error))
        }
    }

    func lost(_ number: Int32) {
        if !receivedAny, retryOnFreshConnection() { return }
        fail(.connectionLost(errno: number))
    }

    /// A kept-alive connection the server had closed before this request: an idempotent request
    /// goes once more on a fresh connection (in the same slot). False when that does not apply.
    func retryOnFreshConnection() -> Bool {
        guard reused, attempt == 1, !receivedAny,
              SocketRequestEncoding.isIdempotent(method), let stale = socket else { return false }
        cancelIdleTimer()
        loop.deregister(stale)
        stale.close()
        socket = nil
        connect()
        return true
    }

    /// Moves the body received so far to the download file; false when writing failed (reported).
    /// The body of a redirect this exchange follows is dropped: the file holds the final body only.
    func writeBodyToFile() -> Bool {
        guard let file = request.downloadFile, parser.head != nil else { return true }
        let bytes = parser.takeBody()
        guard !headIsFollowedRedirect else { return true }
        let writer = download ?? DownloadFileWriter(file: file, queue: io)
        download = writer
        if let error = writer.failure {
            giveBack(reusable: false)
            report(.failure(HTTPClientFailure(.downloadFailed(underlying: error))))
            return false
        }
        if !bytes.isEmpty { writer.write(bytes) }
        return true
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
