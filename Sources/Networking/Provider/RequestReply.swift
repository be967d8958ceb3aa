import Reactive

/// Whom a request run reports its result to: a caller's completion (`request(_:completion:)`),
/// or the observer of `rx.request`'s `Single`, called directly (the run keeps the Single's
/// grammar itself), so a subscription allocates no sink and no closure between the two.
@usableFromInline
enum RequestReply: Sendable {
    /// A provider completion.
    case completion(@Sendable (Result<Response, ProviderError>) -> Void)
    /// The observer of a `Single<Response>`'s subscription: `.next` then `.completed`, or `.error`.
    case observer(AnyObserver<Response>)
}
