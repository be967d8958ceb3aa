import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One request in flight on a `URLSessionTransport`: what arrived so far and whom to tell.
final class URLSessionExchange: Sendable {
    private struct State {
        var response: HTTPURLResponse?
        var data = Data()
        var cancelled = false
    }

    let task: URLSessionDataTask
    let request: URLRequest
    let limit: Int
    let progress: (@Sendable (Double) -> Void)?
    let completion: @Sendable (Result<Response, ProviderError>) -> Void
    private let state = Mutex(State())

    init(task: URLSessionDataTask, request: URLRequest, limit: Int,
         progress: (@Sendable (Double) -> Void)?,
         completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) {
        self.task = task
        self.request = request
        self.limit = limit
        self.progress = progress
        self.completion = completion
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func markCancelled() { state.withLock { $0.cancelled = true } }

    /// Records the response head; `false` when the announced length is over the limit.
    func receive(_ response: URLResponse) -> Bool {
        let http = response as? HTTPURLResponse
        state.withLock { $0.response = http }
        return response.expectedContentLength <= Int64(limit)
    }

    /// Appends body bytes; `false` when the total is over the limit.
    func receive(_ data: Data) -> Bool {
        let (total, expected) = state.withLock { state -> (Int, Int64) in
            state.data.append(data)
            return (state.data.count, state.response?.expectedContentLength ?? -1)
        }
        if let progress, expected > 0 {
            progress(min(1, Double(total) / Double(expected)))
        }
        return total <= limit
    }

    /// The partial or full response, when a response head arrived.
    var currentResponse: Response? {
        state.withLock { state in
            state.response.map { Response(statusCode: $0.statusCode, data: state.data, request: request, response: $0) }
        }
    }
}
