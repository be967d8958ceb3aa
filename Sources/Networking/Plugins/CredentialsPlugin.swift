import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the credential its closure gives for a target (Moya's `CredentialsPlugin`). A
/// credential with a user and a password goes out preemptively as HTTP Basic authorization
/// (`Authorization: Basic base64(user:password)`), unless the request already carries an
/// `Authorization` header; a closure answering `nil` leaves the request alone.
///
/// Unlike Alamofire, transports here do not answer authentication challenges, so the
/// credential is sent with the first request rather than after a `401`.
///
/// ```swift
/// let plugin = CredentialsPlugin { _ in URLCredential(user: "ann", password: "s3cret", persistence: .none) }
/// ```
public struct CredentialsPlugin: PluginType {
    /// Gives the credential for a target, or `nil` for none.
    public typealias CredentialClosure = @Sendable (any TargetType) -> URLCredential?

    private let credentialsClosure: CredentialClosure

    /// A plugin that asks `credentialsClosure` for each request's credential.
    public init(credentialsClosure: @escaping CredentialClosure) {
        self.credentialsClosure = credentialsClosure
    }

    /// Adds the Basic `Authorization` header for the target's credential.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard request.value(forHTTPHeaderField: "Authorization") == nil,
              let credential = credentialsClosure(target),
              let user = credential.user, let password = credential.password else { return request }
        var request = request
        let token = Data("\(user):\(password)".utf8).base64EncodedString()
        request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        return request
    }
}
