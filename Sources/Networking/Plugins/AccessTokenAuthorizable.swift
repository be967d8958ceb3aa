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
