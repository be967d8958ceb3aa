import Foundation

/// Moya's bridging to `NSError`: the description under `NSLocalizedDescriptionKey` and the
/// wrapped error, when there is one, under `NSUnderlyingErrorKey`.
///
/// ```swift
/// let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
/// ```
extension ProviderError: CustomNSError {
    /// The description and the underlying error.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [:]
        userInfo[NSLocalizedDescriptionKey] = errorDescription
        if let underlyingError {
            userInfo[NSUnderlyingErrorKey] = underlyingError as NSError
        }
        return userInfo
    }
}
