/// Which status codes a provider accepts before failing with `ProviderError.statusCode`.
public enum ValidationType: Sendable, Equatable {
    /// Every status code is accepted.
    case none
    /// 2xx only.
    case successCodes
    /// 2xx and 3xx.
    case successAndRedirectCodes
    /// Exactly the codes given.
    case customCodes([Int])

    /// The accepted codes; empty for `.none` (meaning: no validation).
    public var statusCodes: [Int] {
        switch self {
        case .none: return []
        case .successCodes: return Array(200..<300)
        case .successAndRedirectCodes: return Array(200..<400)
        case .customCodes(let codes): return codes
        }
    }

    /// Whether `statusCode` passes this validation.
    public func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none: return true
        default: return statusCodes.contains(statusCode)
        }
    }
}
