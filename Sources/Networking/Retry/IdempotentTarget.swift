/// A target that says whether repeating its request is safe, overriding its method's
/// idempotency: a `POST` with an idempotency key opts in, a `GET` with side effects opts out.
/// `provider.rx.request(_:retryPolicy:)` honours it.
///
/// ```swift
/// extension PaymentAPI: IdempotentTarget {
///     var isIdempotent: Bool { headers?["Idempotency-Key"] != nil || method.isIdempotent }
/// }
/// ```
public protocol IdempotentTarget: TargetType {
    /// Whether the request may be sent again after a failure.
    var isIdempotent: Bool { get }
}

extension IdempotentTarget {
    /// The method's idempotency.
    public var isIdempotent: Bool { method.isIdempotent }
}

extension RetryPolicy {
    /// Whether this policy may repeat `target`'s request at all: always when the target is an
    /// `IdempotentTarget` saying so, else by its method (or for any method when `retriesNonIdempotent`).
    /// A `MultiTarget` is judged as the target it wraps.
    public func allowsRetry(of target: any TargetType) -> Bool {
        let target = Self.unwrapped(target)
        if let target = target as? any IdempotentTarget { return target.isIdempotent }
        return target.method.isIdempotent || retriesNonIdempotent
    }

    /// This policy as it applies to `target` (a `MultiTarget`'s wrapped one): unchanged for a
    /// plain target; for an `IdempotentTarget`, open to any method when it opts in and `.none`
    /// when it opts out.
    func applying(to target: any TargetType) -> RetryPolicy {
        guard let target = Self.unwrapped(target) as? any IdempotentTarget else { return self }
        guard target.isIdempotent else { return .none }
        var policy = self
        policy.retriesNonIdempotent = true
        return policy
    }

    /// The target a `MultiTarget` wraps (through any nesting), else `target`: `MultiTarget` is an
    /// `IdempotentTarget` only to forward its wrapped target's answer, and a plain wrapped target
    /// must keep the policy's `retriesNonIdempotent`.
    private static func unwrapped(_ target: any TargetType) -> any TargetType {
        var target = target
        while let multi = target as? MultiTarget { target = multi.target }
        return target
    }
}
