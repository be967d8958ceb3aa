extension Single where Element: Sendable {
    /// RxSwift's `Single.create(detached:priority:work:)`: a single that runs `work` in a task
    /// (a detached one when `detached`) on each subscription; disposing cancels the task.
    ///
    /// ```swift
    /// let profile = Single.create(priority: .userInitiated) { try await api.profile() }
    /// ```
    @_disfavoredOverload
    public static func create(
        detached: Bool = false, priority: TaskPriority? = nil,
        work: @escaping @Sendable () async throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.create { observer in
            let operation: @Sendable () async -> Void = {
                do {
                    let element = try await work()
                    observer.on(.next(element))
                    observer.on(.completed)
                } catch {
                    observer.on(.error(error))
                }
            }
            let task = detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        })
    }
}
