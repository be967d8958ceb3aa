import Foundation
import Reactive

extension Rx where Base: NetworkProviderType {
    /// The request for `target` with a non-2xx status turned into an error and every error
    /// classified: `rx.request` (with `retryPolicy` when given) -> `filterSuccessfulStatusCodes()`
    /// -> `classifyErrors()`. The pipeline of `Requestable` and `NetworkService`.
    ///
    /// ```swift
    /// provider.rx.classifiedRequest(.feed).map(Feed.self) // fails with an `APIError`
    /// ```
    public func classifiedRequest(
        _ target: Base.Target, retryPolicy: RetryPolicy? = nil, callbackQueue: DispatchQueue? = nil
    ) -> Single<Response> {
        let sent = retryPolicy.map { request(target, retryPolicy: $0, callbackQueue: callbackQueue) }
            ?? request(target, callbackQueue: callbackQueue)
        return sent.filterSuccessfulStatusCodes().classifyErrors()
    }
}
