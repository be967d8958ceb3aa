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
    public func request(_ target: Base.Target, callbackQueue: DispatchQueue? = nil) -> Single<Response> {
        let provider = base
        let single = Single<Response>.create { observer in
            let call = provider.request(target, callbackQueue: callbackQueue, progress: nil) { result in
                observer(result.mapError { $0 })
            }
            return Disposables.create { call.cancel() }
        }
        guard let timeout = provider.requestTimeout else { return single }
        return single.timeout(timeout, scheduler: provider.scheduler)
    }

    /// The request for `target` with its download progress: progress values, then the response.
    public func requestWithProgress(
        _ target: Base.Target, callbackQueue: DispatchQueue? = nil
    ) -> Observable<ProgressResponse> {
        let provider = base
        return Observable.create { observer in
            let call = provider.request(target, callbackQueue: callbackQueue, progress: { fraction in
                observer.onNext(ProgressResponse(progress: fraction, response: nil))
            }) { result in
                switch result {
                case .success(let response):
                    observer.onNext(ProgressResponse(progress: 1, response: response))
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
            return Disposables.create { call.cancel() }
        }
    }
}

/// A progress update of a request, with the response once it arrived.
public struct ProgressResponse: Sendable {
    /// The fraction done, 0...1.
    public let progress: Double
    /// The response, on the last update.
    public let response: Response?

    /// Whether the response arrived.
    public var completed: Bool { response != nil }
}
