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
        Single(unchecked: .runningTask(detached: detached, priority: priority) { observer in
            let element = try await work()
            observer.on(.next(element))
            observer.on(.completed)
        })
    }
}
