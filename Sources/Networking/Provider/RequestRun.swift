import Foundation
import Reactive
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request through a provider: endpoint, request mapping, plugins, stub or transport,
/// validation, plugins again, delivery. Reports at most once and nothing after `cancel()`,
/// but plugins always see the end (so activity counts stay balanced).
final class RequestRun<Target: TargetType>: Cancellable, Sendable {
    private struct State {
        var work: (any Disposable)?
        var finished = false
        var cancelled = false
        var pluginsStarted = false
    }

    private let provider: NetworkProvider<Target>
    private let target: Target
    private let callbackQueue: DispatchQueue?
    private let progress: NetworkProvider<Target>.ProgressBlock?
    private let completion: NetworkProvider<Target>.Completion
    private let state = Mutex(State())

    init(
        provider: NetworkProvider<Target>, target: Target, callbackQueue: DispatchQueue?,
        progress: NetworkProvider<Target>.ProgressBlock?, completion: @escaping NetworkProvider<Target>.Completion
    ) {
        self.provider = provider
        self.target = target
        self.callbackQueue = callbackQueue
        self.progress = progress
        self.completion = completion
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func start() -> Self {
        let endpoint = provider.endpointClosure(target)
        provider.requestClosure(endpoint) { result in
            switch result {
            case .failure(let error):
                self.finish(.failure(error))
            case .success(let request):
                self.send(self.prepare(request), endpoint: endpoint)
            }
        }
        return self
    }

    func cancel() {
        let (work, notify) = state.withLock { state -> ((any Disposable)?, Bool) in
            guard !state.cancelled, !state.finished else { return (nil, false) }
            state.cancelled = true
            state.finished = true
            let work = state.work
            state.work = nil
            return (work, state.pluginsStarted)
        }
        work?.dispose()
        if notify {
            let cancelled = Result<Response, ProviderError>.failure(.underlying(URLError(.cancelled), nil))
            for plugin in provider.plugins { plugin.didReceive(cancelled, target: target) }
        }
    }

    private func prepare(_ request: URLRequest) -> URLRequest {
        let prepared = provider.plugins.reduce(request) { $1.prepare($0, target: target) }
        let proceed = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.pluginsStarted = true
            return true
        }
        if proceed {
            let sent = PreparedRequest(request: prepared)
            for plugin in provider.plugins { plugin.willSend(sent, target: target) }
        }
        return prepared
    }

    private func send(_ request: URLRequest, endpoint: Endpoint) {
        guard !isCancelled else { return }
        let work: any Disposable
        switch provider.stubClosure(target) {
        case .never:
            let complete: @Sendable (Result<Response, ProviderError>) -> Void = { self.finish($0) }
            if provider.trackInflights {
                work = provider.inflight.send(request, transport: provider.transport, progress: progress, completion: complete)
            } else {
                let call = provider.transport.send(request, progress: progress, completion: complete)
                work = Disposables.create { call.cancel() }
            }
        case .immediate:
            work = provider.scheduler.schedule { self.finish(Self.stubResult(endpoint, request: request)) }
        case .delayed(let delay):
            work = provider.scheduler.scheduleRelative(delay) { self.finish(Self.stubResult(endpoint, request: request)) }
        }
        let disposeNow = state.withLock { state -> Bool in
            if state.finished { return state.cancelled }
            state.work = work
            return false
        }
        if disposeNow { work.dispose() }
    }

    static func stubResult(_ endpoint: Endpoint, request: URLRequest) -> Result<Response, ProviderError> {
        switch endpoint.sampleResponseClosure() {
        case .networkResponse(let statusCode, let data):
            let response = request.url.flatMap {
                HTTPURLResponse(url: $0, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: nil)
            }
            return .success(Response(statusCode: statusCode, data: data, request: request, response: response))
        case .response(let response, let data):
            return .success(Response(statusCode: response.statusCode, data: data, request: request, response: response))
        case .networkError(let error):
            return .failure(.underlying(error, nil))
        }
    }

    private func finish(_ result: Result<Response, ProviderError>) {
        let proceed = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.finished = true
            state.work = nil
            return true
        }
        guard proceed else { return }
        let validated = Self.validate(result, codes: target.validationType.statusCodes)
        for plugin in provider.plugins { plugin.didReceive(validated, target: target) }
        let processed = provider.plugins.reduce(validated) { $1.process($0, target: target) }
        if let callbackQueue {
            let completion = self.completion
            callbackQueue.async { completion(processed) }
        } else {
            completion(processed)
        }
    }

    static func validate(_ result: Result<Response, ProviderError>, codes: [Int]) -> Result<Response, ProviderError> {
        guard case .success(let response) = result, !codes.isEmpty, !codes.contains(response.statusCode) else {
            return result
        }
        return .failure(.statusCode(response))
    }
}
