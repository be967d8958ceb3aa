import Foundation

/// Wraps any target so one provider serves targets of several types (Moya's `MultiTarget`).
/// Every property is the wrapped target's; an `AccessTokenAuthorizable` or `IdempotentTarget`
/// wrapped target keeps its answer.
///
/// ```swift
/// let provider = NetworkProvider<MultiTarget>()
/// provider.rx.request(MultiTarget(GitHub.zen))
/// provider.rx.request(.target(FeedAPI.recent))
/// ```
public enum MultiTarget: TargetType, AccessTokenAuthorizable, IdempotentTarget {
    /// The wrapped target.
    case target(any TargetType)

    /// Wraps `target`, so one provider of `MultiTarget` can send targets of several types.
    public init(_ target: any TargetType) {
        self = .target(target)
    }

    /// The wrapped target.
    public var target: any TargetType {
        switch self {
        case .target(let target): return target
        }
    }

    /// The wrapped target's base URL.
    public var baseURL: URL { target.baseURL }
    /// The wrapped target's path.
    public var path: String { target.path }
    /// The wrapped target's method.
    public var method: HTTPMethod { target.method }
    /// The wrapped target's task.
    public var task: RequestTask { target.task }
    /// The wrapped target's headers.
    public var headers: [String: String]? { target.headers }
    /// The wrapped target's sample data.
    public var sampleData: Data { target.sampleData }
    /// The wrapped target's validation.
    public var validationType: ValidationType { target.validationType }

    /// The wrapped target's authorization type, `nil` when it is not `AccessTokenAuthorizable`.
    public var authorizationType: AuthorizationType? {
        (target as? any AccessTokenAuthorizable)?.authorizationType
    }

    /// The wrapped target's answer when it is an `IdempotentTarget`, else its method's.
    public var isIdempotent: Bool {
        (target as? any IdempotentTarget)?.isIdempotent ?? target.method.isIdempotent
    }
}
