/// Whom a request run reports its result to: a caller's completion (`request(_:completion:)`),
/// or the observer of `rx.request`'s `Single`, called directly, so a subscription allocates no
/// closure to adapt one to the other.
@usableFromInline
enum RequestReply: Sendable {
    /// A provider completion.
    case completion(@Sendable (Result<Response, ProviderError>) -> Void)
    /// A `Single<Response>`'s observer.
    case single(@Sendable (Result<Response, any Error>) -> Void)

    /// Hands `result` over.
    func send(_ result: Result<Response, ProviderError>) {
        switch self {
        case .completion(let completion): completion(result)
        case .single(let observer): observer(result.mapError { $0 })
        }
    }
}
