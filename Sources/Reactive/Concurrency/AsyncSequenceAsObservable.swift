extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// RxSwift's `asObservable(detached:priority:)`: the elements of this sequence, iterated in
    /// a task (a detached one when `detached`) per subscription; disposing cancels the task.
    ///
    /// ```swift
    /// notifications.asObservable(priority: .utility).subscribe(onNext: { print($0) })
    /// ```
    public func asObservable(detached: Bool = false, priority: TaskPriority? = nil) -> Observable<Element> {
        .runningTask(detached: detached, priority: priority) { observer in
            for try await element in self {
                if Task.isCancelled { return }
                observer.on(.next(element))
            }
            observer.on(.completed)
        }
    }
}
