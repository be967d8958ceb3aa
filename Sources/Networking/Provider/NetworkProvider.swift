import Foundation
import HTTPClient
import Reactive
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the requests of one target type: endpoint mapping, plugins, stubs, in-flight sharing,
/// and a transport underneath. Moya's `MoyaProvider`, with stubs and timeouts on a scheduler.
///
/// ```swift
/// let provider = NetworkProvider<GitHub>(plugins: [NetworkLoggerPlugin()])
/// provider.rx.request(.zen).filterSuccessfulStatusCodes().mapString()
/// ```
public final class NetworkProvider<Target: TargetType>: NetworkProviderType, Sendable {
    /// Builds the endpoint of a target.
    public typealias EndpointClosure = @Sendable (Target) -> Endpoint
    /// Receives the built request, or the reason it could not be built.
    public typealias RequestResultClosure = @Sendable (Result<URLRequest, ProviderError>) -> Void
    /// Turns an endpoint into a `URLRequest` (asynchronously if it likes).
    public typealias RequestClosure = @Sendable (Endpoint, @escaping RequestResultClosure) -> Void
    /// Says whether and how a target is stubbed.
    public typealias StubClosure = @Sendable (Target) -> StubBehavior
    /// Receives progress updates (`Networking.ProgressBlock`).
    public typealias ProgressBlock = Networking.ProgressBlock
    /// Receives the result of a request.
    public typealias Completion = @Sendable (Result<Response, ProviderError>) -> Void

    /// Builds endpoints from targets.
    public let endpointClosure: EndpointClosure
    /// Builds requests from endpoints.
    public let requestClosure: RequestClosure
    /// Chooses stubbing per target.
    public let stubClosure: StubClosure
    /// Where completions, progress and plugins' `didReceive`/`process` run when a request names
    /// no queue; `nil` runs an answer arriving on an event loop (`SocketTransport`) on the
    /// provider's own serial delivery queue, never on the loop, a stub's on `scheduler`, and
    /// any other where it arrives.
    public let callbackQueue: DispatchQueue?
    /// What sends real requests.
    public let transport: any HTTPTransport
    /// Called around every request, in order.
    public let plugins: [any PluginType]
    /// Whether identical requests in flight share one transport call.
    public let trackInflights: Bool
    /// Where stubs answer and where `requestTimeout` runs.
    public let scheduler: any SchedulerType
    /// A timeout applied to every `rx.request`, classified as `APIError.requestTimeout`.
    public let requestTimeout: Duration?

    let inflight: InflightRegistry
    /// Where a transport's answers arriving on an event loop run when there is no `callbackQueue`:
    /// a serial queue of this provider's on one shared queue (`AnswerDelivery`), so a slow
    /// subscriber delays only this provider's deliveries, and never a transport's event loop.
    let deliveryQueue = AnswerDelivery.queue(nil, label: "NetworkProvider.delivery")
    /// Whether `scheduler` is an `ImmediateScheduler`, whose `.immediate` stubs then answer in
    /// place, as its `schedule` would, without a closure and a disposable per request.
    let schedulesInline: Bool

    /// A provider; every parameter is defaulted as in Moya, except the transport: `DefaultTransport`
    /// sends `http://` (and `https://` when the system's OpenSSL loads) through `SocketTransport`
    /// and everything else through URLSession. With no
    /// `callbackQueue`, an `.immediate` stub answers at once on `scheduler` (by default the
    /// calling thread, as Moya does) and a `.delayed(d)` stub `d` later there.
    public init(
        endpointClosure: @escaping EndpointClosure = NetworkProvider.defaultEndpointMapping,
        requestClosure: @escaping RequestClosure = NetworkProvider.defaultRequestMapping,
        stubClosure: @escaping StubClosure = NetworkProvider.neverStub,
        callbackQueue: DispatchQueue? = nil,
        transport: any HTTPTransport = DefaultTransport(),
        plugins: [any PluginType] = [],
        trackInflights: Bool = false,
        scheduler: any SchedulerType = ImmediateScheduler.instance,
        requestTimeout: Duration? = nil
    ) {
        self.endpointClosure = endpointClosure
        self.requestClosure = requestClosure
        self.stubClosure = stubClosure
        self.callbackQueue = callbackQueue
        self.transport = transport
        self.plugins = plugins
        self.trackInflights = trackInflights
        self.scheduler = scheduler
        self.requestTimeout = requestTimeout
        self.inflight = InflightRegistry()
        self.schedulesInline = scheduler is ImmediateScheduler
    }

    /// The endpoint a target maps to by default: `baseURL` + `path`, method, task, headers,
    /// and a 200 sample response with `sampleData`.
    @Sendable
    public static func defaultEndpointMapping(for target: Target) -> Endpoint {
        Endpoint(target: target)
    }

    /// Builds the `URLRequest` of `endpoint`, reporting a failure as a `ProviderError`.
    @Sendable
    public static func defaultRequestMapping(for endpoint: Endpoint, closure: RequestResultClosure) {
        do {
            closure(.success(try endpoint.urlRequest()))
        } catch let error as ProviderError {
            closure(.failure(error))
        } catch {
            closure(.failure(.underlying(error, nil)))
        }
    }

    /// Never stubs.
    @Sendable
    public static func neverStub(_: Target) -> StubBehavior { .never }

    /// Stubs every target, answering at once.
    @Sendable
    public static func immediatelyStub(_: Target) -> StubBehavior { .immediate }

    /// Stubs every target, answering after `delay`.
    public static func delayedStub(_ delay: Duration) -> StubClosure {
        { _ in .delayed(delay) }
    }

    /// Stubs every target, answering after `seconds` (Moya's `delayedStub(_:)`).
    public static func delayedStub(_ seconds: TimeInterval) -> StubClosure {
        delayedStub(.seconds(seconds))
    }

    /// The endpoint `endpointClosure` builds for `target`.
    public func endpoint(_ target: Target) -> Endpoint {
        endpointClosure(target)
    }

    /// The requests in flight shared by `trackInflights`: each endpoint with the completions
    /// waiting for it (empty when `trackInflights` is off). A snapshot, read only.
    public var inflightRequests: [Endpoint: [Completion]] {
        inflight.requests
    }

    /// Sends the request for `target` and calls `completion` exactly once: with the answer, or
    /// after `cancel()` with `ProviderError.underlying(URLError(.cancelled), nil)`. `progress`
    /// gets upload progress for uploads, download progress otherwise, and a last update when the
    /// request ends (with the response on success). Both run on `callbackQueue` when there is
    /// one, else as `callbackQueue`'s documentation says.
    ///
    /// ```swift
    /// provider.request(.zen) { result in print(result) }
    /// ```
    @discardableResult
    public func request(
        _ target: Target, callbackQueue: DispatchQueue? = nil, progress: ProgressBlock? = nil,
        completion: @escaping Completion
    ) -> any Cancellable {
        RequestRun(provider: self, target: target, callbackQueue: callbackQueue ?? self.callbackQueue,
                   progress: progress, reply: .completion(completion)).start()
    }

    /// `request(_:callbackQueue:progress:completion:)` for `rx.request`: the answer goes to the
    /// subscription's `observer` as a `Single`'s events, and the returned run is its disposable
    /// (disposing cancels, and the observer hears nothing more): one object where a sink, a
    /// completion closure and a disposable wrapping the run were.
    @inlinable
    func request(_ target: Target, callbackQueue: DispatchQueue?, observer: AnyObserver<Response>) -> any Disposable {
        RequestRun(provider: self, target: target, callbackQueue: callbackQueue ?? self.callbackQueue,
                   progress: nil, reply: .observer(observer)).start()
    }

    /// Sends the request for `target` and returns its response; cancelling the task cancels the
    /// request and throws `CancellationError` (in a task cancelled already, without sending).
    /// The provider's `requestTimeout` applies, as to `rx.request`.
    public func request(_ target: Target) async throws -> Response {
        // The timeout is `rx.request`'s operator; without one the run resumes the task itself
        // (no subscription, sink or bridge between the two).
        if requestTimeout != nil { return try await rx.request(target).value }
        try Task.checkCancellation()
        let run = RequestRun(provider: self, target: target, callbackQueue: callbackQueue, progress: nil, reply: .awaiting)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                if run.begin(awaiting: continuation) { _ = run.start() }
            }
        } onCancel: {
            run.cancelAwaiting()
        }
    }
}

/// What `Rx` needs to know of a provider.
public protocol NetworkProviderType: AnyObject, RxCompatible, Sendable {
    /// The target type.
    associatedtype Target: TargetType

    /// Sends the request for `target`.
    @discardableResult
    func request(
        _ target: Target, callbackQueue: DispatchQueue?, progress: ProgressBlock?,
        completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void
    ) -> any Cancellable

    /// The timeout `rx.request` applies.
    var requestTimeout: Duration? { get }
    /// Where that timeout runs.
    var scheduler: any SchedulerType { get }
}
