import Foundation
import HTTPWire
import EventLoopIO

/// Ending: following a redirect, reporting once, giving the connection back, and the idle timer.
extension SocketExchange {
    func completed(_ response: HTTPResponse, reusable: Bool) {
        let url = responseURL
        let head = response.head
        let next = RedirectPolicy.statuses.contains(head.status)
            ? RedirectPolicy.nextRequest(after: request, status: head.status, location: head.headers["Location"]) : nil
        let nextMethod = next?.normalizedMethod
        for action in machine.completed(reusable: reusable, redirectIdempotent: nextMethod.map(SocketRequestEncoding.isIdempotent)) {
            switch action {
            case .giveBack(let reusable):
                giveBack(reusable: reusable)
            case .refuseRedirect(let count):
                let partial = makeResponse(head, body: response.body, url: url)
                report(.failure(HTTPClientFailure(.tooManyRedirects(count), response: partial)))
            case .followRedirect:
                guard let next, let nextMethod else { return }
                if nextMethod != method { upload = nil }
                request = next
                method = nextMethod
                target = nil
                begin()
            case .deliver(let decodesBody):
                deliver(response, decodesBody: decodesBody, url: url)
            default:
                perform(action)
            }
        }
    }

    /// Reports `response`; with `decodesBody` its body decoded, else (a download, whose body went
    /// to the file as it arrived) none.
    func deliver(_ response: HTTPResponse, decodesBody: Bool, url: URL) {
        let head = response.head
        guard decodesBody else { return report(.success(makeResponse(head, body: [], url: url))) }
        switch ContentDecoding.decode(response.body, headers: head.headers, limit: configuration.maximumResponseSize) {
        case .success(let decoded): report(.success(makeResponse(head, body: decoded, url: url)))
        case .failure(let error): report(.failure(HTTPClientFailure(error, response: makeResponse(head, body: response.body, url: url))))
        }
    }

    /// Reports `error` with whatever response head arrived, after giving the slot back.
    func fail(_ error: HTTPClientError) {
        let url = responseURL
        let partial = parser.head.map { makeResponse($0, body: request.downloadFile == nil ? parser.takeBody() : [], url: url) }
        if let waitingID, let key = target?.key { pool.cancelWaiting(key, id: waitingID) }
        waitingID = nil
        giveBack(reusable: false)
        report(.failure(HTTPClientFailure(error, response: partial)))
    }

    /// Returns the connection slot: the socket goes back to the pool when `reusable`, else it is closed.
    func giveBack(reusable: Bool) {
        cancelIdleTimer()
        connectTimer?.cancel()
        connectTimer = nil
        attempts.abandon()
        closeBody()
        if let socket { loop.deregister(socket) }
        if machine.holdsSlot, let key = target?.key {
            pool.release(key, socket: socket, reusable: reusable && !isFinished, home: loop)
        } else {
            socket?.close()
        }
        machine.gaveBack()
        socket = nil
    }

    /// After `cancel()`: frees everything the exchange holds; reports nothing.
    func tearDown() {
        guard machine.cancel() == .tearDown else { return }
        if let waitingID, let key = target?.key { pool.cancelWaiting(key, id: waitingID) }
        waitingID = nil
        giveBack(reusable: false)
        finishTimers()
    }

    /// Reports `result` once; with a download, after the last byte is in the file (a write that
    /// failed turns a success into that failure).
    func report(_ result: Result<HTTPClientResponse, HTTPClientFailure>) {
        let writer = download
        download = nil
        finishTimers()
        machine.ended()
        let claimed = control.withLock { control -> Bool in
            guard !control.finished else { return false }
            control.finished = true
            return true
        }
        guard claimed else {
            writer?.finish { _ in }
            return
        }
        guard let writer else { return completion(result) }
        // Back on the loop to report, like every other answer, so that a caller sees progress
        // and the answer arrive from one thread, in order.
        let succeeded = if case .success = result { true } else { false }
        writer.finish { [self, loop] error in
            loop.execute { [self] in
                switch (fileDownload.finished(succeeded: succeeded, fileFailed: error != nil), error) {
                case (.failDownload, let error?): completion(.failure(HTTPClientFailure(.downloadFailed(underlying: error))))
                default: completion(result)
                }
            }
        }
    }

    /// Cancels the overall timer and closes the download file.
    func finishTimers() {
        overallTimer?.cancel()
        overallTimer = nil
        download?.finish { _ in }
        download = nil
    }

    // MARK: Idle timer

    func touch() {
        lastActivity = .now
    }

    func armIdleTimer() {
        cancelIdleTimer()
        let timeout = idleTimeout
        idleTimer = loop.schedule(at: lastActivity + timeout) { [self] in
            idleTimer = nil
            if let action = machine.idleTimerFired(idleFor: ContinuousClock.now - lastActivity, idleTimeout: timeout) {
                perform(action)
            }
        }
    }

    func cancelIdleTimer() {
        idleTimer?.cancel()
        idleTimer = nil
    }

    /// The URL a response to the current request carries: the target's (read once at the
    /// start), else the request's.
    var responseURL: URL {
        target?.url ?? request.url
    }

    func makeResponse(_ head: HTTPResponseHead, body: [UInt8], url: URL) -> HTTPClientResponse {
        let file = request.downloadFile
        return HTTPClientResponse(head: head, body: body, url: url,
                                  fileURL: file.flatMap { _ in head.status < 300 || head.status >= 400 ? file : nil })
    }
}
