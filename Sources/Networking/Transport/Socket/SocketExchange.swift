import Dispatch
import Foundation
import Reactive
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One request on a `SocketTransport`, from waiting for a connection to the last redirect.
///
/// The blocking work runs on the exchange's own serial queue (one thread while it runs). The
/// result is reported at most once: `finished` is set under the lock by whoever reports, by
/// `cancel()` (which then reports nothing) or by the overall deadline. The socket in use is
/// published in `socket` so that `cancel()` and the deadline can shut it down to wake a blocked
/// read; the worker takes it out under the same lock before closing it or pooling it, so a
/// descriptor is never shut down after it was handed on, and a shut-down one is never pooled.
final class SocketExchange: Cancellable {
    private struct State {
        var finished = false
        var cancelled = false
        var expired = false
        var socket: TCPSocket?
        var waiting: (key: ConnectionPoolKey, id: UInt64)?
    }

    private struct Failure: Error {
        let error: any Error
        let head: HTTPResponseHead?
        let body: [UInt8]
        let receivedAny: Bool
    }

    private struct Completed {
        let response: HTTPResponse
        let reusable: Bool
    }

    private let original: URLRequest
    private let configuration: SocketTransport.Configuration
    private let pool: ConnectionPool
    private let queue: DispatchQueue
    private let progress: (@Sendable (Double) -> Void)?
    private let completion: @Sendable (Result<Response, ProviderError>) -> Void
    private let idleTimeout: Duration
    private let deadline: ContinuousClock.Instant?
    private let state = Mutex(State())

    init(request: URLRequest, configuration: SocketTransport.Configuration, pool: ConnectionPool,
         progress: (@Sendable (Double) -> Void)?,
         completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) {
        self.original = request
        self.configuration = configuration
        self.pool = pool
        self.queue = DispatchQueue(label: "SocketTransport.exchange")
        self.progress = progress
        self.completion = completion
        let defaultInterval = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval
        if request.timeoutInterval != defaultInterval, request.timeoutInterval > 0 {
            self.idleTimeout = .milliseconds(Int64(min(request.timeoutInterval, 1e9) * 1000))
        } else {
            self.idleTimeout = configuration.idleTimeout
        }
        self.deadline = configuration.overallDeadline.map { ContinuousClock.now + $0 }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Starts the exchange (asynchronously) and arms the overall deadline.
    func start() {
        if let overall = configuration.overallDeadline {
            DispatchQueue.global().asyncAfter(deadline: .now() + overall.timeInterval) { [weak self] in
                self?.expire()
            }
        }
        queue.async { [self] in
            begin(SocketRequestEncoding.withBodyInMemory(original), redirects: 0)
        }
    }

    func cancel() {
        let waiting = state.withLock { state -> (key: ConnectionPoolKey, id: UInt64)? in
            state.cancelled = true
            state.finished = true
            state.socket?.shutdown()
            return state.waiting
        }
        if let waiting { pool.cancelWaiting(waiting.key, id: waiting.id) }
    }

    // MARK: - Deadline

    /// The overall deadline passed: a worker blocked on a socket is woken and reports the
    /// timeout itself (with what arrived); otherwise the timeout is reported here.
    private func expire() {
        enum Action { case none, wokeWorker, report((key: ConnectionPoolKey, id: UInt64)?) }
        let action = state.withLock { state -> Action in
            guard !state.finished else { return .none }
            state.expired = true
            if let socket = state.socket {
                socket.shutdown()
                return .wokeWorker
            }
            state.finished = true
            return .report(state.waiting)
        }
        guard case .report(let waiting) = action else { return }
        if let waiting { pool.cancelWaiting(waiting.key, id: waiting.id) }
        let url = original.url ?? URL(fileURLWithPath: "/")
        completion(.failure(.underlying(SocketErrorMapping.urlError(.timedOut, url: url), nil)))
    }

    // MARK: - Running

    private func begin(_ request: URLRequest, redirects: Int) {
        let target: SocketRequestTarget
        do throws(URLError) {
            guard let url = request.url else { throw URLError(.badURL) }
            target = try SocketRequestTarget(url: url)
        } catch {
            report(.failure(.underlying(error, nil)))
            return
        }
        let id = pool.acquire(target.key) { [self] lease in
            queue.async { self.run(request, target: target, redirects: redirects, lease: lease) }
        }
        let finished = state.withLock { state -> Bool in
            state.waiting = (target.key, id)
            return state.finished
        }
        if finished { pool.cancelWaiting(target.key, id: id) }
    }

    private func run(_ request: URLRequest, target: SocketRequestTarget, redirects: Int, lease: ConnectionLease) {
        let key = target.key
        let stillWanted = state.withLock { state -> Bool in
            state.waiting = nil
            return !state.finished
        }
        guard stillWanted else {
            if case .reused(let socket) = lease {
                pool.release(key, socket: socket, reusable: true)
            } else {
                pool.release(key, socket: nil, reusable: false)
            }
            return
        }
        let url = request.url ?? URL(fileURLWithPath: "/")
        let method = SocketRequestEncoding.method(of: request)
        let bytes = SocketRequestEncoding.encode(request, target: target)
        var lease = lease
        var attempt = 0
        while true {
            attempt += 1
            let socket: TCPSocket
            let reused: Bool
            switch lease {
            case .reused(let pooled) where !Self.isStale(pooled):
                socket = pooled
                reused = true
            case .reused(let pooled):
                pooled.close()
                fallthrough
            case .fresh:
                do {
                    socket = try TCPSocket.connect(host: key.host, port: key.port, timeout: try boundedTimeout(configuration.connectTimeout))
                } catch {
                    pool.release(key, socket: nil, reusable: false)
                    fail(error, head: nil, body: [], url: url)
                    return
                }
                reused = false
            }
            guard attach(socket) else {
                pool.release(key, socket: socket, reusable: false)
                return
            }
            let outcome: Result<Completed, Failure>
            do throws(Failure) {
                outcome = .success(try exchange(bytes, on: socket, method: method, closeAfter: SocketRequestEncoding.asksToClose(request)))
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .failure(let failure):
                let (_, intact) = detach()
                if intact, reused, attempt == 1, !failure.receivedAny, SocketRequestEncoding.isIdempotent(method),
                   SocketErrorMapping.isStaleConnection(failure.error) {
                    socket.close()
                    lease = .fresh
                    continue
                }
                pool.release(key, socket: socket, reusable: false)
                fail(failure.error, head: failure.head, body: failure.body, url: url)
                return
            case .success(let completed):
                finish(completed, request: request, socket: socket, key: key, url: url, redirects: redirects)
                return
            }
        }
    }

    private func finish(_ completed: Completed, request: URLRequest, socket: TCPSocket, key: ConnectionPoolKey,
                        url: URL, redirects: Int) {
        let head = completed.response.head
        if let next = RedirectPolicy.nextRequest(after: request, status: head.status, location: head.headers["Location"]) {
            let (live, intact) = detach()
            pool.release(key, socket: socket, reusable: intact && completed.reusable)
            guard live else { return }
            guard intact else {
                fail(SocketError.timedOut(operation: "deadline"), head: head, body: completed.response.body, url: url)
                return
            }
            guard redirects < configuration.maximumRedirects else {
                let response = makeResponse(head, body: completed.response.body, url: url)
                let error = SocketErrorMapping.urlError(.httpTooManyRedirects, url: url)
                report(.failure(.underlying(error, response)))
                return
            }
            begin(next, redirects: redirects + 1)
            return
        }
        let (claimed, expired) = state.withLock { state -> (Bool, Bool) in
            state.socket = nil
            let claimed = !state.finished
            state.finished = true
            return (claimed, state.expired)
        }
        pool.release(key, socket: socket, reusable: claimed && !expired && completed.reusable)
        guard claimed else { return }
        let response = makeResponse(head, body: completed.response.body, url: url)
        if expired {
            completion(.failure(.underlying(SocketErrorMapping.urlError(.timedOut, url: url), response)))
        } else {
            completion(.success(response))
        }
    }

    /// Writes the request and reads one whole response.
    private func exchange(_ bytes: [UInt8], on socket: TCPSocket, method: String, closeAfter: Bool) throws(Failure) -> Completed {
        var parser = HTTPResponseParser(requestMethod: method, maxHeaderBytes: configuration.maximumHeaderBytes,
                                        maxBodyBytes: configuration.maximumResponseSize)
        var receivedAny = false
        do throws(SocketError) {
            try socket.write(bytes, timeout: try boundedTimeout(idleTimeout))
        } catch {
            throw Failure(error: error, head: nil, body: [], receivedAny: false)
        }
        while true {
            do {
                let chunk = try socket.read(maxBytes: 65_536, timeout: try boundedTimeout(idleTimeout))
                if chunk.isEmpty {
                    return Completed(response: try parser.finishAtEndOfStream(), reusable: false)
                }
                receivedAny = true
                let response = try parser.feed(chunk)
                reportProgress(parser)
                if let response {
                    let reusable = !closeAfter && response.head.keepAlive && response.head.status != 101
                        && parser.unusedBytes.isEmpty
                    return Completed(response: response, reusable: reusable)
                }
            } catch {
                throw Failure(error: error, head: parser.head, body: parser.body, receivedAny: receivedAny)
            }
        }
    }

    private func reportProgress(_ parser: HTTPResponseParser) {
        guard let progress, let text = parser.head?.headers["Content-Length"],
              let expected = Int(text.trimmingCharacters(in: .whitespaces)), expected > 0,
              !state.withLock({ $0.finished }) else { return }
        progress(min(1, Double(parser.body.count) / Double(expected)))
    }

    // MARK: - State

    /// Publishes the socket in use; false when the exchange already ended (the caller closes it).
    private func attach(_ socket: TCPSocket) -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            state.socket = socket
            return true
        }
    }

    /// Takes the socket back. `live`: the exchange still has to report; `intact`: nobody shut
    /// the socket down (neither `cancel()` nor the deadline), so it may be pooled.
    private func detach() -> (live: Bool, intact: Bool) {
        state.withLock { state in
            state.socket = nil
            return (!state.finished, !state.finished && !state.expired)
        }
    }

    /// Reports `error` (mapped to `URLError`), or the timeout when the deadline woke the worker.
    private func fail(_ error: any Error, head: HTTPResponseHead?, body: [UInt8], url: URL) {
        let response = head.map { makeResponse($0, body: body, url: url) }
        let expired = state.withLock { $0.expired }
        let mapped = expired ? SocketErrorMapping.urlError(.timedOut, url: url) : SocketErrorMapping.map(error, url: url)
        report(.failure(.underlying(mapped, response)))
    }

    private func report(_ result: Result<Response, ProviderError>) {
        let claimed = state.withLock { state -> Bool in
            state.socket = nil
            guard !state.finished else { return false }
            state.finished = true
            return true
        }
        if claimed { completion(result) }
    }

    private func makeResponse(_ head: HTTPResponseHead, body: [UInt8], url: URL) -> Response {
        var fields: [String: String] = [:]
        for field in head.headers {
            if let existing = fields[field.name] {
                fields[field.name] = existing + ", " + field.value
            } else {
                fields[field.name] = field.value
            }
        }
        let http = HTTPURLResponse(url: url, statusCode: head.status, httpVersion: head.version.description, headerFields: fields)
        return Response(statusCode: head.status, data: Data(body), request: original, response: http)
    }

    /// `timeout`, shortened to what is left of the overall deadline; throws a timeout when none is left.
    private func boundedTimeout(_ timeout: Duration) throws(SocketError) -> Duration {
        guard let deadline else { return timeout }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw .timedOut(operation: "deadline") }
        return min(timeout, remaining)
    }

    /// Whether an idle pooled connection was closed by the server (or sent something unasked).
    private static func isStale(_ socket: TCPSocket) -> Bool {
        (try? socket.wait(for: Int16(POLLIN), timeout: .zero)) ?? true
    }
}
