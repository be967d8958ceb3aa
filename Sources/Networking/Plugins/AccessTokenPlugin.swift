import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sets `Authorization: <scheme> <token>` on requests for targets that are `AccessTokenAuthorizable`
/// with a non-nil `authorizationType`.
public struct AccessTokenPlugin: PluginType {
    /// Produces the token for a target.
    public let tokenClosure: @Sendable (any TargetType) -> String

    /// A plugin that asks `tokenClosure` for the token of each request it authorizes.
    public init(tokenClosure: @escaping @Sendable (any TargetType) -> String) {
        self.tokenClosure = tokenClosure
    }

    /// Sets the `Authorization` header when the target asks for one.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let authorizable = target as? any AccessTokenAuthorizable,
              let authorizationType = authorizable.authorizationType else { return request }
        var request = request
        request.setValue("\(authorizationType.value) \(tokenClosure(target))", forHTTPHeaderField: "Authorization")
        return request
    }
}
