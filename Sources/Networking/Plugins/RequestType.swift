import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request a plugin's `willSend` sees.
public protocol RequestType: Sendable {
    /// The request about to be sent (after every plugin's `prepare`), if it could be built.
    var request: URLRequest? { get }
    /// Headers the session adds to every request (from its configuration).
    var sessionHeaders: [String: String] { get }
    /// Hands `handler` the request as a curl command, with every header and the body as they are
    /// (Moya's `cURLDescription(calling:)`); by default Alamofire's form, at once, on the calling thread.
    @discardableResult
    func cURLDescription(calling handler: @escaping (String) -> Void) -> Self
}

extension RequestType {
    /// Hands `handler` Alamofire's curl form of `request` (`$ curl -v`, `-X`, `-H` per header,
    /// `-d` body, the URL), nothing masked, at once; "$ curl command could not be created" without
    /// a usable request.
    ///
    /// ```swift
    /// func willSend(_ request: RequestType, target: TargetType) { request.cURLDescription { print($0) } }
    /// ```
    @discardableResult
    public func cURLDescription(calling handler: @escaping (String) -> Void) -> Self {
        guard let request else {
            handler("$ curl command could not be created")
            return self
        }
        handler(CURLCommand.text(request, sessionHeaders: sessionHeaders, redactor: Redactor(names: [])))
        return self
    }
}

/// A plain `RequestType` value.
public struct PreparedRequest: RequestType {
    /// The request, if it could be built.
    public let request: URLRequest?
    /// Headers the session adds.
    public let sessionHeaders: [String: String]

    /// Creates a value carrying `request` and the session's extra headers.
    public init(request: URLRequest?, sessionHeaders: [String: String] = [:]) {
        self.request = request
        self.sessionHeaders = sessionHeaders
    }
}
