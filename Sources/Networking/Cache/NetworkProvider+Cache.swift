import Foundation
import Reactive

extension Rx where Base: NetworkProviderType, Base.Target: CacheableTarget {
    /// Stale-while-revalidate: the response cached for `target` (if any) at once, then the fresh
    /// response, which replaces the cached one when its status is 2xx.
    ///
    /// A target whose `cacheKey` is `nil` gives just the fresh response. The request is sent on
    /// every subscription. A failure of the fresh request fails the observable, also after a
    /// cached response was emitted (use `catch` to end quietly on the stale copy).
    ///
    /// ```swift
    /// provider.rx.requestCached(.feed, cache: cache).map { try $0.map(Feed.self) }
    /// ```
    public func requestCached(
        _ target: Base.Target, cache: ResponseCache, callbackQueue: DispatchQueue? = nil
    ) -> Observable<Response> {
        let fresh = request(target, callbackQueue: callbackQueue)
        guard let key = target.cacheKey else { return fresh.asObservable() }
        return Observable.deferred {
            let revalidated = fresh.do(onSuccess: { response in
                if (200...299).contains(response.statusCode) { cache.store(response, forKey: key) }
            }).asObservable()
            guard let cached = cache.response(forKey: key) else { return revalidated }
            return revalidated.startWith(cached)
        }
    }
}
