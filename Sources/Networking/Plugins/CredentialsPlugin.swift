import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the credential its closure gives for a target (Moya's `CredentialsPlugin`). A
/// credential with a user and a password goes out preemptively as HTTP Basic authorization
/// (`Authorization: Basic base64(user:password)`), unless the request already carries an
/// `Authorization` header; a closure answering `nil` leaves the request alone.
///
/// The credential goes only to the host of the target's `baseURL` (compared without case), so a
/// request rewritten by an endpoint closure or another plugin to point elsewhere carries none;
/// and only over `https://`, unless `allowsPlainHTTP` is true (Basic credentials over
/// plain `http://` can be read by anyone on the path).
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
    /// Whether credentials may go over plain `http://` (for a test server on loopback, say).
    public let allowsPlainHTTP: Bool

    /// A plugin that asks `credentialsClosure` for each request's credential; with
    /// `allowsPlainHTTP: true` it also sends them over plain `http://`.
    public init(allowsPlainHTTP: Bool = false, credentialsClosure: @escaping CredentialClosure) {
        self.allowsPlainHTTP = allowsPlainHTTP
        self.credentialsClosure = credentialsClosure
    }

    /// Adds the Basic `Authorization` header for the target's credential, when the request goes
    /// to the target's host over `https://` (or `http://` when allowed).
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard request.value(forHTTPHeaderField: "Authorization") == nil, goesToItsTarget(request, target: target),
              let credential = credentialsClosure(target),
              let user = credential.user, let password = credential.password else { return request }
        var request = request
        let token = Data("\(user):\(password)".utf8).base64EncodedString()
        request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    private func goesToItsTarget(_ request: URLRequest, target: any TargetType) -> Bool {
        guard let url = request.url, let host = url.host?.lowercased(), !host.isEmpty,
              host == target.baseURL.host?.lowercased() else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return allowsPlainHTTP
        default: return false
        }
    }
}
