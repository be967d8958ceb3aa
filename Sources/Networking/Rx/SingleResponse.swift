import Foundation
import Reactive

extension Single where Element == Response {
    /// Fails with `ProviderError.statusCode` unless the status is in `statusCodes`.
    public func filter<Codes: RangeExpression & Sendable>(statusCodes: Codes) -> Single<Response> where Codes.Bound == Int {
        map { try $0.filter(statusCodes: statusCodes) }
    }

    /// Fails with `ProviderError.statusCode` unless the status is `statusCode`.
    public func filter(statusCode: Int) -> Single<Response> {
        map { try $0.filter(statusCode: statusCode) }
    }

    /// Fails with `ProviderError.statusCode` unless the status is 200...299.
    public func filterSuccessfulStatusCodes() -> Single<Response> {
        map { try $0.filterSuccessfulStatusCodes() }
    }

    /// Fails with `ProviderError.statusCode` unless the status is 200...399.
    public func filterSuccessfulStatusAndRedirectCodes() -> Single<Response> {
        map { try $0.filterSuccessfulStatusAndRedirectCodes() }
    }

    /// The body as a JSON object; fails with `ProviderError.jsonMapping`.
    public func mapJSON(failsOnEmptyData: Bool = true) -> Single<Any> {
        map { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
    }

    /// The body (or the string at `keyPath`) as text; fails with `ProviderError.stringMapping`.
    public func mapString(atKeyPath keyPath: String? = nil) -> Single<String> {
        map { try $0.mapString(atKeyPath: keyPath) }
    }

    /// The body (or the value at `keyPath`) decoded; fails with `ProviderError.objectMapping`.
    ///
    /// ```swift
    /// provider.rx.request(.user(1)).map(User.self)
    /// ```
    @inlinable
    public func map<D: Decodable & SendableMetatype>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) -> Single<D> {
        let decoder = UncheckedDecoder(decoder)
        return map { try $0.map(type, atKeyPath: keyPath, using: decoder.decoder, failsOnEmptyData: failsOnEmptyData) }
    }
}

/// Carries a caller's `JSONDecoder` into the mapping closure; `@usableFromInline` so the
/// `@inlinable` `map(_:)` above, and the Reactive sinks under it, are specialized in a client module.
// @unchecked: the decoder is only read (`decode` does not mutate its configuration).
@usableFromInline
struct UncheckedDecoder: @unchecked Sendable {
    @usableFromInline let decoder: JSONDecoder
    @inlinable init(_ decoder: JSONDecoder) { self.decoder = decoder }
}
