import Foundation
import Reactive

/// The `Response` operators of `Single<Response>` on a stream of responses (Moya's
/// `ObservableType where Element == Response`): each element is filtered or mapped, and the
/// first failure ends the stream with its `ProviderError`.
extension ObservableType where Element == Response {
    /// Fails with `ProviderError.statusCode` unless the status is in `statusCodes`.
    public func filter<Codes: RangeExpression & Sendable>(statusCodes: Codes) -> Observable<Response> where Codes.Bound == Int {
        asObservable().map { try $0.filter(statusCodes: statusCodes) }
    }

    /// Fails with `ProviderError.statusCode` unless the status is `statusCode`.
    public func filter(statusCode: Int) -> Observable<Response> {
        asObservable().map { try $0.filter(statusCode: statusCode) }
    }

    /// Fails with `ProviderError.statusCode` unless the status is 200...299.
    public func filterSuccessfulStatusCodes() -> Observable<Response> {
        asObservable().map { try $0.filterSuccessfulStatusCodes() }
    }

    /// Fails with `ProviderError.statusCode` unless the status is 200...399.
    public func filterSuccessfulStatusAndRedirectCodes() -> Observable<Response> {
        asObservable().map { try $0.filterSuccessfulStatusAndRedirectCodes() }
    }

    /// Each body as a JSON object; fails with `ProviderError.jsonMapping`.
    public func mapJSON(failsOnEmptyData: Bool = true) -> Observable<Any> {
        asObservable().map { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
    }

    /// Each body (or the string at `keyPath`) as text; fails with `ProviderError.stringMapping`.
    public func mapString(atKeyPath keyPath: String? = nil) -> Observable<String> {
        asObservable().map { try $0.mapString(atKeyPath: keyPath) }
    }

    /// Each body (or the value at `keyPath`) decoded; fails with `ProviderError.objectMapping`.
    ///
    /// ```swift
    /// provider.rx.request(.users).asObservable().map([User].self)
    /// ```
    public func map<D: Decodable & SendableMetatype>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) -> Observable<D> {
        let decoder = UncheckedDecoder(decoder)
        return asObservable().map { try $0.map(type, atKeyPath: keyPath, using: decoder.decoder, failsOnEmptyData: failsOnEmptyData) }
    }
}
