import Foundation
import HTTPWire
import Locking

/// The meeting point of one streamed response: the exchange (on its loop) hands over the head
/// and the body's bytes; the caller of `HTTPClient.stream(_:)` awaits the head, then reads the
/// chunks. At most about `limit` bytes wait unread: past it `write` tells the exchange to leave
/// the socket unread, and reading below half of it lets the exchange read again. The exchange's
/// end (`end(_:)`) ends the body, or fails it. Everything is behind one lock; nothing is called
/// under it.
final class ResponseBodyStream: ResponseBodySink, Sendable {
    typealias HeadAnswer = Result<HTTPResponseHead, HTTPClientError>
    typealias ChunkAnswer = Result<[UInt8]?, HTTPClientError>

    private struct State {
        var head: HTTPResponseHead?
        var url: URL?
        var headWaiter: CheckedContinuation<HeadAnswer, Never>?
        var chunks: [[UInt8]] = []
        var firstChunk = 0
        var buffered = 0
        var reader: CheckedContinuation<ChunkAnswer, Never>?
        var resume: (@Sendable () -> Void)?
        /// How the exchange ended: nil while the body is still coming.
        var end: Result<Void, HTTPClientError>?
        var task: (any HTTPClientTask)?
        var timings: HTTPClientTimings?
    }

    /// The unread bytes past which the exchange stops reading the socket.
    let limit: Int
    private let state = Lock(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    // MARK: The exchange's side (on its loop)

    var failure: (any Error)? { nil }

    /// The final response's head arrived from `url`: the caller of `stream(_:)` gets it.
    func headArrived(_ head: HTTPResponseHead, url: URL) {
        let waiter = state.withLock { state -> CheckedContinuation<HeadAnswer, Never>? in
            state.head = head
            state.url = url
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: .success(head))
    }

    func write(_ bytes: [UInt8]) -> Bool {
        let (reader, full) = state.withLock { state -> (CheckedContinuation<ChunkAnswer, Never>?, Bool) in
            if let reader = state.reader, state.chunks.count == state.firstChunk {
                state.reader = nil
                return (reader, false)
            }
            state.chunks.append(bytes)
            state.buffered += bytes.count
            return (nil, state.buffered > limit)
        }
        reader?.resume(returning: .success(bytes))
        return full
    }

    func resumeWhenDrained(_ resume: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.buffered > limit / 2, state.end == nil else { return true }
            state.resume = resume
            return false
        }
        if now { resume() }
    }

    func finish(_ done: @escaping @Sendable ((any Error)?) -> Void) {
        done(nil)
    }

    /// The exchange reported: the body ends (after what is buffered) or fails; a caller still
    /// waiting for the head gets the failure.
    func end(_ result: Result<Void, HTTPClientError>, timings: HTTPClientTimings? = nil) {
        let (headWaiter, reader, answer) = state.withLock { state -> (CheckedContinuation<HeadAnswer, Never>?, CheckedContinuation<ChunkAnswer, Never>?, ChunkAnswer) in
            if state.end == nil { state.end = result }
            if let timings { state.timings = timings }
            let waiter = state.headWaiter
            state.headWaiter = nil
            let reader = state.reader
            state.reader = nil
            let answer: ChunkAnswer = switch state.end ?? result {
            case .success: .success(nil)
            case .failure(let error): .failure(error)
            }
            return (waiter, reader, answer)
        }
        if let headWaiter {
            if case .failure(let error) = answer { headWaiter.resume(returning: .failure(error)) } else {
                headWaiter.resume(returning: .failure(.connectionLost(errno: nil)))
            }
        }
        reader?.resume(returning: answer)
    }

    // MARK: The caller's side

    /// Keeps the exchange's handle, to cancel it; cancels it at once when the caller gave up already.
    func started(_ task: any HTTPClientTask) {
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            if case .failure(.cancelled)? = state.end { return true }
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// The head, or the failure that came first.
    func head() async -> HeadAnswer {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> HeadAnswer? in
                    if let head = state.head { return .success(head) }
                    if case .failure(let error)? = state.end { return .failure(error) }
                    state.headWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next chunk, nil at the end of the body; waits while none is buffered.
    func next() async -> ChunkAnswer {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (ready, resume) = state.withLock { state -> (ChunkAnswer?, (@Sendable () -> Void)?) in
                    if state.firstChunk < state.chunks.count {
                        let chunk = state.chunks[state.firstChunk]
                        state.chunks[state.firstChunk] = []
                        state.firstChunk += 1
                        if state.firstChunk == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.firstChunk = 0
                        }
                        state.buffered -= chunk.count
                        var resume: (@Sendable () -> Void)?
                        if state.buffered <= limit / 2 {
                            resume = state.resume
                            state.resume = nil
                        }
                        return (.success(chunk), resume)
                    }
                    switch state.end {
                    case .success?: return (.success(nil), nil)
                    case .failure(let error)?: return (.failure(error), nil)
                    case nil:
                        state.reader = continuation
                        return (nil, nil)
                    }
                }
                resume?()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The caller stopped (its task cancelled, or it let go of the body before its end): the
    /// exchange is cancelled (its connection closed) unless it ended already, and whoever waits
    /// gets `.cancelled`.
    func cancel() {
        let task = state.withLock { state -> (any HTTPClientTask)? in
            guard state.end == nil else { return nil }
            state.end = .failure(.cancelled)
            state.chunks.removeAll()
            state.firstChunk = 0
            state.buffered = 0
            return state.task
        }
        task?.cancel()
        end(.failure(.cancelled))
    }

    /// The request's timings, once the exchange ended.
    var timings: HTTPClientTimings? { state.withLock { $0.timings } }

    /// The URL that answered, once the head arrived.
    var url: URL? { state.withLock { $0.url } }

    /// Whether the body ended (whole or failed).
    var isEnded: Bool { state.withLock { $0.end != nil } }
}
