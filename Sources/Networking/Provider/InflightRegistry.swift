import Foundation
import Locking
import Reactive
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Identical requests in flight share one transport call: every caller gets the answer, and
/// the call is cancelled only when the last caller cancels.
final class InflightRegistry: Sendable {
    typealias Completion = @Sendable (Result<Response, ProviderError>) -> Void

    private struct Call {
        let endpoint: Endpoint
        var waiters: [Int: Completion] = [:]
        var cancellable: (any Cancellable)?
    }

    private struct State {
        var calls: [InflightKey: Call] = [:]
        var nextWaiter = 0
    }

    private let state = Lock(State())

    /// The number of distinct calls in flight.
    var count: Int { state.withLock { $0.calls.count } }

    /// The endpoint of each call in flight (its first caller's) with the completions waiting for it.
    var requests: [Endpoint: [Completion]] {
        // Endpoints are hashed outside the lock: hashing builds their requests (caller code).
        let calls = state.withLock { state in
            state.calls.values.map { ($0.endpoint, $0.waiters.sorted { $0.key < $1.key }.map(\.value)) }
        }
        var requests: [Endpoint: [Completion]] = [:]
        for (endpoint, completions) in calls { requests[endpoint, default: []] += completions }
        return requests
    }

    func send(
        _ request: URLRequest, endpoint: Endpoint, transport: any HTTPTransport, progress: (@Sendable (Double) -> Void)?,
        completion: @escaping Completion
    ) -> any Disposable {
        let key = InflightKey(request)
        let (waiter, isFirst) = state.withLock { state -> (Int, Bool) in
            let waiter = state.nextWaiter
            state.nextWaiter += 1
            let isFirst = state.calls[key] == nil
            state.calls[key, default: Call(endpoint: endpoint)].waiters[waiter] = completion
            return (waiter, isFirst)
        }
        if isFirst {
            let cancellable = transport.send(request, progress: progress) { [weak self] result in
                self?.complete(key, with: result)
            }
            let cancelNow = state.withLock { state -> Bool in
                guard state.calls[key] != nil else { return false }
                state.calls[key]?.cancellable = cancellable
                return state.calls[key]?.waiters.isEmpty ?? false
            }
            if cancelNow { cancellable.cancel() }
        }
        return Disposables.create { [weak self] in self?.leave(key, waiter: waiter) }
    }

    private func complete(_ key: InflightKey, with result: Result<Response, ProviderError>) {
        let waiters = state.withLock { state in state.calls.removeValue(forKey: key)?.waiters ?? [:] }
        for (_, completion) in waiters.sorted(by: { $0.key < $1.key }) { completion(result) }
    }

    private func leave(_ key: InflightKey, waiter: Int) {
        let cancellable = state.withLock { state -> (any Cancellable)? in
            guard var call = state.calls[key] else { return nil }
            call.waiters[waiter] = nil
            if call.waiters.isEmpty, let cancellable = call.cancellable {
                state.calls[key] = nil
                return cancellable
            }
            state.calls[key] = call
            return nil
        }
        cancellable?.cancel()
    }
}

/// What makes two requests identical: method, URL, headers and body.
struct InflightKey: Hashable, Sendable {
    let method: String
    let url: String
    let headers: [String]
    let body: Data?

    init(_ request: URLRequest) {
        method = request.httpMethod ?? "GET"
        url = request.url?.absoluteString ?? ""
        headers = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()):\($0.value)" }.sorted()
        body = request.httpBody
    }
}
