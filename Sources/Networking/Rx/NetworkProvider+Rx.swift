import Foundation
import Reactive
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Rx where Base: NetworkProviderType {
    /// The request for `target` as a `Single`: disposing cancels it; it keeps the provider
    /// alive until it answers; the provider's `requestTimeout` applies.
    ///
    /// ```swift
    /// provider.rx.request(.feed).filterSuccessfulStatusCodes().map(Feed.self)
    /// ```
    // @inlinable: specialized in the caller's module, the cast to `NetworkProvider` and the
    // run's generic metadata cost nothing per request (the runtime's metadata cache otherwise).
    @inlinable
    public func request(_ target: Base.Target, callbackQueue: DispatchQueue? = nil) -> Single<Response> {
        let provider = base
        let single: Single<Response>
        if let provider = provider as? NetworkProvider<Base.Target> {
            // The run keeps the Single's grammar (one answer, nothing after dispose), so its
            // subscriptions need no `create` sink.
            single = .keepingGrammar { observer in
                provider.request(target, callbackQueue: callbackQueue, observer: observer)
            }
        } else {
            single = .create { observer in
                let call = provider.request(target, callbackQueue: callbackQueue, progress: nil) { result in
                    observer(result.mapError { $0 })
                }
                return Disposables.create { call.cancel() }
            }
        }
        guard let timeout = provider.requestTimeout else { return single }
        return single.timeout(timeout, scheduler: provider.scheduler)
    }

    /// The request for `target` with its progress, as Moya's: progress updates, then the last
    /// one (`completed`, with the response), then completion; a failure ends it with the error.
    /// Disposing cancels the request.
    ///
    /// ```swift
    /// provider.rx.requestWithProgress(.upload(file)).subscribe(onNext: { print($0.progress) })
    /// ```
    public func requestWithProgress(
        _ target: Base.Target, callbackQueue: DispatchQueue? = nil
    ) -> Observable<ProgressResponse> {
        let provider = base
        return Observable.create { observer in
            let call = provider.request(target, callbackQueue: callbackQueue, progress: { observer.onNext($0) }) { result in
                switch result {
                case .success:
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
            return Disposables.create { call.cancel() }
        }
    }
}
