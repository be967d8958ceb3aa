import Reactive

/// Whom a request run reports its result to: a caller's completion (`request(_:completion:)`),
/// the observer of `rx.request`'s `Single`, called directly (the run keeps the Single's
/// grammar itself), so a subscription allocates no sink and no closure between the two, or an
/// awaiting task (`request(_:) async`), whose continuation the run keeps in its state.
@usableFromInline
enum RequestReply: Sendable {
    /// A provider completion.
    case completion(@Sendable (Result<Response, ProviderError>) -> Void)
    /// The observer of a `Single<Response>`'s subscription: `.next` then `.completed`, or `.error`.
    case observer(AnyObserver<Response>)
    /// The task awaiting `request(_:) async`: the run resumes the continuation it was given
    /// (`begin(awaiting:)`) once, unless the task's cancellation resumed it first.
    case awaiting
}
