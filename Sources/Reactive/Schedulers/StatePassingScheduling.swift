import Locking

extension SchedulerType {
    /// RxSwift's form: runs `action(state)` as soon as possible; disposing the result cancels
    /// it if it has not run, or else disposes what it returned.
    ///
    /// ```swift
    /// scheduler.schedule(url) { url in load(url).subscribe() }
    /// ```
    @discardableResult
    public func schedule<StateType: Sendable>(
        _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let result = SingleAssignmentDisposable()
        let pending = schedule { result.setDisposable(action(state)) }
        return Disposables.create(pending, result)
    }

    /// RxSwift's form: runs `action(state)` after `dueTime`; disposing the result cancels it if
    /// it has not run, or else disposes what it returned.
    @discardableResult
    public func scheduleRelative<StateType: Sendable>(
        _ state: StateType, dueTime: Duration, action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let result = SingleAssignmentDisposable()
        let pending = scheduleRelative(dueTime) { result.setDisposable(action(state)) }
        return Disposables.create(pending, result)
    }

    /// RxSwift's form: runs `action` after `startAfter`, then every `period`, each time with
    /// the state the previous run returned, starting from `state`.
    ///
    /// ```swift
    /// scheduler.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(1)) { count in
    ///     print(count)
    ///     return count + 1
    /// }
    /// ```
    @discardableResult
    public func schedulePeriodic<StateType: Sendable>(
        _ state: StateType, startAfter: Duration, period: Duration,
        action: @escaping @Sendable (StateType) -> StateType
    ) -> any Disposable {
        let current = Lock(state)
        return schedulePeriodic(startAfter: startAfter, period: period) {
            let state = current.withLock { $0 }
            let next = action(state)
            current.withLock { $0 = next }
        }
    }
}
