extension ObservableType where Element: Sendable {
    /// The elements as an async sequence; the loop ends at completion, throws the error,
    /// and leaving it early disposes the subscription.
    ///
    /// ```swift
    /// for try await value in observable.values { print(value) }
    /// ```
    public var values: AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let subscription = self.subscribe(
                onNext: { continuation.yield($0) },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() }
            )
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}

extension Single where Element: Sendable {
    /// A single that runs `work` in a task on each subscription; disposing cancels the task.
    ///
    /// ```swift
    /// let data = Single { try await URLSession.shared.data(from: url).0 }
    /// ```
    public init(_ work: @escaping @Sendable () async throws -> Element) {
        self.init(unchecked: Observable.create { observer in
            let task = Task {
                do {
                    let element = try await work()
                    observer.on(.next(element))
                    observer.on(.completed)
                } catch {
                    observer.on(.error(error))
                }
            }
            return Disposables.create { task.cancel() }
        })
    }
}

extension Observable where Element: Sendable {
    /// The elements of an async sequence; disposing cancels the iterating task.
    ///
    /// ```swift
    /// Observable.from(stream).subscribe(onNext: { print($0) })
    /// ```
    public static func from<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) -> Observable<Element>
        where Sequence.Element == Element {
        Observable.create { observer in
            let task = Task {
                do {
                    for try await element in sequence {
                        if Task.isCancelled { return }
                        observer.on(.next(element))
                    }
                    observer.on(.completed)
                } catch {
                    observer.on(.error(error))
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
