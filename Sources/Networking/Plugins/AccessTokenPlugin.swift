import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sets `Authorization: <scheme> <token>` on requests for targets that are `AccessTokenAuthorizable`
/// with a non-nil `authorizationType`.
public struct AccessTokenPlugin: PluginType {
    /// Produces the token for a target: the wrapped one of a `MultiTarget`, as in Moya.
    public let tokenClosure: @Sendable (any TargetType) -> String

    /// A plugin that asks `tokenClosure` for the token of each request it authorizes.
    public init(tokenClosure: @escaping @Sendable (any TargetType) -> String) {
        self.tokenClosure = tokenClosure
    }

    /// Sets the `Authorization` header when the target asks for one; `tokenClosure` gets the
    /// target a `MultiTarget` wraps, so a closure choosing the token by target type sees it.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let authorizable = target as? any AccessTokenAuthorizable,
              let authorizationType = authorizable.authorizationType else { return request }
        let realTarget = (target as? MultiTarget)?.target ?? target
        var request = request
        request.setValue("\(authorizationType.value) \(tokenClosure(realTarget))", forHTTPHeaderField: "Authorization")
        return request
    }
}
