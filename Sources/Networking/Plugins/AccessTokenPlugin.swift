import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The scheme of an `Authorization` header.
public enum AuthorizationType: Sendable, Equatable {
    /// `Basic <token>`
    case basic
    /// `Bearer <token>`
    case bearer
    /// `<scheme> <token>`
    case custom(String)

    /// The scheme word.
    public var value: String {
        switch self {
        case .basic: return "Basic"
        case .bearer: return "Bearer"
        case .custom(let scheme): return scheme
        }
    }
}

/// A target that asks `AccessTokenPlugin` for an `Authorization` header.
public protocol AccessTokenAuthorizable: TargetType {
    /// The scheme to use; `nil` sends no token.
    var authorizationType: AuthorizationType? { get }
}

/// Sets `Authorization: <scheme> <token>` on requests for targets that are `AccessTokenAuthorizable`
/// with a non-nil `authorizationType`.
public struct AccessTokenPlugin: PluginType {
    /// Produces the token for a target.
    public let tokenClosure: @Sendable (any TargetType) -> String

    /// Creates the plugin.
    public init(tokenClosure: @escaping @Sendable (any TargetType) -> String) {
        self.tokenClosure = tokenClosure
    }

    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let authorizable = target as? any AccessTokenAuthorizable,
              let authorizationType = authorizable.authorizationType else { return request }
        var request = request
        request.setValue("\(authorizationType.value) \(tokenClosure(target))", forHTTPHeaderField: "Authorization")
        return request
    }
}
