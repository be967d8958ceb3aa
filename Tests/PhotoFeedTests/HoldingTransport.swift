import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking

/// A transport that answers a request only when the test says so, and whose send of the
/// request named `heldName` blocks its thread until `release` is signalled: it lets a test
/// dispose a load while another thread is still sending its request. Counts the requests in
/// flight (sent, neither answered nor cancelled) and the most at once.
final class HoldingTransport: HTTPTransport {
    typealias Completion = @Sendable (Result<Response, ProviderError>) -> Void

    private let state = Lock<(inFlight: Int, most: Int, sent: [String], pending: [String: Completion])>((0, 0, [], [:]))
    private let heldName: String
    private let name: @Sendable (URLRequest) -> String
    /// Signalled when the held send has begun.
    let entered = DispatchSemaphore(value: 0)
    /// Lets the held send return.
    let release = DispatchSemaphore(value: 0)

    /// Holds the send of the request that `name` calls `heldName`.
    init(holding heldName: String, name: @escaping @Sendable (URLRequest) -> String) {
        self.heldName = heldName
        self.name = name
    }

    /// The most requests in flight at once.
    var most: Int { state.withLock { $0.most } }
    /// The names of the requests sent, in order.
    var sent: [String] { state.withLock { $0.sent } }

    func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
              completion: @escaping Completion) -> any Cancellable {
        let name = name(request)
        state.withLock { state in
            state.inFlight += 1
            state.most = max(state.most, state.inFlight)
            state.sent.append(name)
            state.pending[name] = completion
        }
        let call = ScheduledCall()
        call.onCancel { [self] in _ = take(name) }
        if name == heldName {
            entered.signal()
            release.wait()
        }
        return call
    }

    /// Answers the request named `name` with status 200 and `body`.
    func answer(_ name: String, with body: Data) {
        take(name)?(.success(Response(statusCode: 200, data: body)))
    }

    private func take(_ name: String) -> Completion? {
        state.withLock { state in
            guard let completion = state.pending.removeValue(forKey: name) else { return nil }
            state.inFlight -= 1
            return completion
        }
    }
}
