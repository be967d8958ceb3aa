import Foundation
import Reactive

extension Single where Element == Response {
    /// Turns connection failures (no internet, cannot connect, unknown host, DNS, lost
    /// connection) into `APIError.internetConnection`; passes every other error on.
    public func catchInternetConnection() -> Single<Response> {
        self.catch { error in throw APIError.internetConnection(from: error) ?? error }
    }

    /// Turns timeouts (`URLError.timedOut`, `ReactiveError.timeout`) into
    /// `APIError.requestTimeout`; passes every other error on.
    public func catchTimeout() -> Single<Response> {
        self.catch { error in throw APIError.timeout(from: error) ?? error }
    }

    /// Turns status failures into `APIError.restError` with the status and the server's
    /// `code` from a JSON error body; passes every other error on.
    public func catchREST() -> Single<Response> {
        self.catch { error in throw APIError.rest(from: error) ?? error }
    }

    /// The three handlers in order: connection, timeout, REST.
    ///
    /// ```swift
    /// provider.rx.request(.feed).filterSuccessfulStatusCodes().classifyErrors()
    /// ```
    public func classifyErrors() -> Single<Response> {
        catchInternetConnection().catchTimeout().catchREST()
    }
}
