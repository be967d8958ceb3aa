extension ObservableType where Element: Sendable {
    /// The elements as an async sequence, subscribed at once and buffered: the loop ends at
    /// completion and throws the error; leaving it early, or dropping the sequence, disposes the
    /// subscription; iterating in a cancelled task (or cancelling it) throws `CancellationError`.
    ///
    /// ```swift
    /// for try await value in observable.values { print(value) }
    /// ```
    public var values: ObservableValuesSequence<Element> {
        ObservableValuesSequence(buffer: AsyncElementBuffer(self))
    }
}

extension Single where Element: Sendable {
    /// A single that runs `work` in a task on each subscription; disposing cancels the task.
    ///
    /// ```swift
    /// let data = Single { try await URLSession.shared.data(from: url).0 }
    /// ```
    public init(_ work: @escaping @Sendable () async throws -> Element) {
        self = .create(work: work)
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
        sequence.asObservable()
    }
}
