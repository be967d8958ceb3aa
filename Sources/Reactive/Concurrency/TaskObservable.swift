extension Observable {
    /// An observable whose subscriptions run `body` in a task (a detached one when `detached`)
    /// with the observer; a throw fails the sequence, disposing cancels the task. The engine of
    /// the async bridges.
    static func runningTask(
        detached: Bool, priority: TaskPriority?,
        _ body: @escaping @Sendable (AnyObserver<Element>) async throws -> Void
    ) -> Observable<Element> {
        Observable.create { observer in
            let operation: @Sendable () async -> Void = {
                do {
                    try await body(observer)
                } catch {
                    observer.on(.error(error))
                }
            }
            let task = detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}
