import Foundation
import HTTPClient
import Locking
import Reactive
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Identical requests in flight share one transport call: every caller gets the answer, and
/// the call is cancelled only when the last caller cancels. As in Moya, a call stays listed in
/// `requests` while its completions run: the answer first moves to where its first caller's
/// completion runs (`Hop`), and there the completions of every caller with the same queue run
/// one after another; a caller that named another queue gets the answer on it.
final class InflightRegistry: Sendable {
    typealias Completion = @Sendable (Result<Response, ProviderError>) -> Void
    /// Runs a transport's answer where the first caller's completion runs.
    typealias Hop = @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

    private struct Waiter {
        /// The `callbackQueue` the caller named, if any.
        let queue: DispatchQueue?
        let completion: Completion
    }

    private struct Call {
        let endpoint: Endpoint
        /// The first caller's queue, where `hop` runs the answer.
        let queue: DispatchQueue?
        let hop: Hop
        var waiters: [Int: Waiter] = [:]
        var cancellable: (any Cancellable)?
    }

    private struct State {
        var calls: [RequestIdentity: Call] = [:]
        /// Calls that answered, kept while their completions run (Moya lists them until then).
        var completing: [Int: Call] = [:]
        var nextCompletion = 0
        var nextWaiter = 0
    }

    private let state = Lock(State())

    /// The number of distinct calls in flight.
    var count: Int { state.withLock { $0.calls.count } }

    /// The endpoint of each call in flight (its first caller's) with the completions waiting for it.
    var requests: [Endpoint: [Completion]] {
        // Endpoints are hashed outside the lock: hashing builds their requests (caller code).
        let calls = state.withLock { state in
            (Array(state.calls.values) + Array(state.completing.values)).map {
                ($0.endpoint, $0.waiters.sorted { $0.key < $1.key }.map(\.value.completion))
            }
        }
        var requests: [Endpoint: [Completion]] = [:]
        for (endpoint, completions) in calls { requests[endpoint, default: []] += completions }
        return requests
    }

    /// Sends `request`, or joins the identical call in flight. `completion` runs where `hop` (for
    /// the first caller) puts the answer when `queue` is that caller's queue or `nil`, else on `queue`.
    func send(
        _ request: URLRequest, endpoint: Endpoint, transport: any HTTPTransport, progress: (@Sendable (Double) -> Void)?,
        queue: DispatchQueue?, hop: @escaping Hop, completion: @escaping Completion
    ) -> any Disposable {
        let key = RequestIdentity(request, jsonBody: endpoint.task.hasJSONBody)
        let (waiter, isFirst) = state.withLock { state -> (Int, Bool) in
            let waiter = state.nextWaiter
            state.nextWaiter += 1
            let isFirst = state.calls[key] == nil
            state.calls[key, default: Call(endpoint: endpoint, queue: queue, hop: hop)].waiters[waiter] =
                Waiter(queue: queue, completion: completion)
            return (waiter, isFirst)
        }
        if isFirst {
            let cancellable = transport.send(request, progress: progress) { [weak self] result in
                guard let self else { return }
                hop { self.complete(key, with: result) }
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

    /// Runs the waiters' completions (those that named another queue than the first caller's
    /// go there); the call stays listed in `requests` until they return, while a new identical
    /// request starts a call of its own.
    private func complete(_ key: RequestIdentity, with result: Result<Response, ProviderError>) {
        let completing = state.withLock { state -> (id: Int, call: Call)? in
            guard let call = state.calls.removeValue(forKey: key) else { return nil }
            let id = state.nextCompletion
            state.nextCompletion += 1
            state.completing[id] = call
            return (id, call)
        }
        guard let completing else { return }
        let here = completing.call.queue
        for (_, waiter) in completing.call.waiters.sorted(by: { $0.key < $1.key }) {
            if let queue = waiter.queue, queue !== here {
                let completion = waiter.completion
                AnswerDelivery.async(on: queue) { completion(result) }
            } else {
                waiter.completion(result)
            }
        }
        state.withLock { _ = $0.completing.removeValue(forKey: completing.id) }
    }

    private func leave(_ key: RequestIdentity, waiter: Int) {
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
