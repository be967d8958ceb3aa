import Foundation
import Reactive
import Synchronization

extension Single where Element == Response {
    /// Resubscribes (sends the request again) while `policy` allows it, waiting its backoff or
    /// the server's `Retry-After` on `scheduler` between attempts.
    ///
    /// A failure is retried when `policy.shouldRetry(error:method:attempt:)` says so; a response
    /// whose status is 408, 429 or 5xx counts as a failure for that decision (as
    /// `ProviderError.statusCode`), so a target without validation is retried too. When the
    /// policy gives up, the last outcome goes downstream unchanged: that error, or that response.
    ///
    /// ```swift
    /// provider.rx.request(.feed).retry(RetryPolicy(maxAttempts: 3), method: .get, scheduler: scheduler)
    /// ```
    public func retry(_ policy: RetryPolicy, method: HTTPMethod, scheduler: any SchedulerType) -> Single<Response> {
        let source = self
        return Single.create { observer in
            let run = RetryingRequest(source: source, policy: policy, method: method, scheduler: scheduler, observer: observer)
            run.subscribe(attempt: 1)
            return run
        }
    }
}

extension Rx where Base: NetworkProviderType {
    /// The request for `target`, repeated as `retryPolicy` allows for the target's method (or as
    /// an `IdempotentTarget` says), the waits running on the provider's `scheduler`; each attempt
    /// gets the provider's `requestTimeout`.
    ///
    /// ```swift
    /// provider.rx.request(.feed, retryPolicy: RetryPolicy(maxAttempts: 4)).filterSuccessfulStatusCodes()
    /// ```
    public func request(
        _ target: Base.Target, retryPolicy: RetryPolicy, callbackQueue: DispatchQueue? = nil
    ) -> Single<Response> {
        request(target, callbackQueue: callbackQueue)
            .retry(retryPolicy.applying(to: target), method: target.method, scheduler: base.scheduler)
    }
}

/// One subscription to a retried request: the current attempt or the wait before the next.
///
/// Kept alive by its subscription (the create sink holds it and it holds the sink's observer
/// until the end), so the wait can hold it weakly: a cancelled dispatch timer that keeps its
/// closure until its deadline does not keep the request alive.
final class RetryingRequest: Disposable, Sendable {
    private let source: Single<Response>
    private let policy: RetryPolicy
    private let method: HTTPMethod
    private let scheduler: any SchedulerType
    private let observer: @Sendable (SingleEvent<Response>) -> Void
    private let current = SerialDisposable()

    init(source: Single<Response>, policy: RetryPolicy, method: HTTPMethod, scheduler: any SchedulerType,
         observer: @escaping @Sendable (SingleEvent<Response>) -> Void) {
        self.source = source
        self.policy = policy
        self.method = method
        self.scheduler = scheduler
        self.observer = observer
    }

    func subscribe(attempt: Int) {
        guard !current.isDisposed else { return }
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(source.subscribe { result in
            self.handle(result, attempt: attempt)
        })
    }

    func dispose() {
        current.dispose()
    }

    private func handle(_ result: SingleEvent<Response>, attempt: Int) {
        guard let failure = Self.retryableFailure(in: result),
              policy.shouldRetry(error: failure, method: method, attempt: attempt) else {
            observer(result)
            return
        }
        let wait = policy.delay(forAttempt: attempt, error: failure, now: scheduler.now)
        let timer = SingleAssignmentDisposable()
        current.disposable = timer
        timer.setDisposable(scheduler.scheduleRelative(wait) { [weak self] in
            self?.subscribe(attempt: attempt + 1)
        })
    }

    /// The error the policy judges: the failure, or a retryable status as `ProviderError.statusCode`.
    private static func retryableFailure(in result: SingleEvent<Response>) -> (any Error)? {
        switch result {
        case .failure(let error):
            return error
        case .success(let response):
            let status = response.statusCode
            guard status == 408 || status == 429 || (500...599).contains(status) else { return nil }
            return ProviderError.statusCode(response)
        }
    }
}
