import Foundation
import Reactive

/// When and how long to wait before repeating a failed request: exponential backoff with
/// jitter, a maximum number of attempts, idempotent methods only unless opted in, and the
/// server's `Retry-After`.
///
/// Pure: the provider asks `shouldRetry(error:method:attempt:)` after each failure and waits
/// `delay(forAttempt:error:)` on its scheduler.
public struct RetryPolicy: Sendable {
    /// Attempts in total, the first included (1 = never retry).
    public var maxAttempts: Int
    /// The wait before the first retry.
    public var baseDelay: Duration
    /// The factor applied to the wait for each further retry.
    public var multiplier: Double
    /// The longest backoff wait (a `Retry-After` is capped by it too).
    public var maxDelay: Duration
    /// The fraction (0...1) of the backoff that is randomised: the wait is
    /// `backoff * (1 - jitter * random())`.
    public var jitter: Double
    /// Whether `POST` and `PATCH` are retried too.
    public var retriesNonIdempotent: Bool
    /// A random number in `0..<1`; inject a fixed one for deterministic tests.
    public var random: @Sendable () -> Double

    /// A policy; out-of-range values are clamped (at least one attempt, delays not negative,
    /// `multiplier` at least 1, `jitter` within `0...1`).
    public init(maxAttempts: Int = 3,
                baseDelay: Duration = .milliseconds(500),
                multiplier: Double = 2,
                maxDelay: Duration = .seconds(30),
                jitter: Double = 0.2,
                retriesNonIdempotent: Bool = false,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(.zero, maxDelay)
        self.jitter = min(1, max(0, jitter))
        self.retriesNonIdempotent = retriesNonIdempotent
        self.random = random
    }

    /// One attempt: a failure is reported as it is.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether to retry after `attempt` attempts (1 after the first failure) failed with `error`.
    /// Retried: connection errors, timeouts and statuses 408, 429 and 5xx, on idempotent methods
    /// (or any method when `retriesNonIdempotent`); never a cancel.
    public func shouldRetry(error: any Error, method: HTTPMethod, attempt: Int) -> Bool {
        guard attempt < maxAttempts else { return false }
        guard method.isIdempotent || retriesNonIdempotent else { return false }
        return Self.isRetryable(error)
    }

    /// Whether `error` is worth repeating, whatever the method and attempt.
    public static func isRetryable(_ error: any Error) -> Bool {
        if error.isCancelled { return false }
        if error.isNotConnection || error.isLostConnection || error.isTimeout { return true }
        guard let statusCode = statusCode(of: error) else { return false }
        return statusCode == 408 || statusCode == 429 || (500...599).contains(statusCode)
    }

    /// The wait before retry number `attempt` (1 for the first retry): the server's `Retry-After`
    /// when the error's response has one (capped by `maxDelay`), else the jittered backoff.
    public func delay(forAttempt attempt: Int, error: (any Error)? = nil, now: Date = Date()) -> Duration {
        if let error, let retryAfter = Self.retryAfter(of: error, now: now) {
            return min(retryAfter, maxDelay)
        }
        let exponent = Double(max(0, attempt - 1))
        let backoff = min(baseDelay.timeInterval * pow(multiplier, exponent), maxDelay.timeInterval)
        let jittered = backoff * (1 - jitter * min(1, max(0, random())))
        return .nanoseconds(Int64((jittered * 1e9).rounded()))
    }

    /// The `Retry-After` of the error's response as a wait, if present and parseable.
    public static func retryAfter(of error: any Error, now: Date = Date()) -> Duration? {
        guard let value = response(of: error)?.headerValue("Retry-After") else { return nil }
        return RetryAfter.parse(value, now: now)
    }

    private static func response(of error: any Error) -> Response? {
        for link in ErrorClassification.chain(of: error) {
            if let response = (link as? ProviderError)?.response { return response }
        }
        return nil
    }

    private static func statusCode(of error: any Error) -> Int? {
        for link in ErrorClassification.chain(of: error) {
            if let statusCode = (link as? APIError)?.statusCode { return statusCode }
            if case .statusCode(let response)? = link as? ProviderError { return response.statusCode }
        }
        return nil
    }
}
