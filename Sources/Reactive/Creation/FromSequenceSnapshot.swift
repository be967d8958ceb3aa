extension Observable where Element: Sendable {
    /// `from(_:scheduler:)` for a sequence that is not `Sendable` (RxSwift takes any sequence):
    /// its elements are read into an array here, at the call, since the sequence itself may not
    /// cross to the scheduler's thread; each subscription then replays that array, one action
    /// per element. A `Sendable` sequence takes the other form and is iterated per subscription.
    ///
    /// ```swift
    /// Observable.from(sequence(first: 1) { $0 < 3 ? $0 + 1 : nil }, scheduler: scheduler)   // 1, 2, 3
    /// ```
    @_disfavoredOverload
    public static func from<S: Sequence>(_ sequence: S, scheduler: any SchedulerType) -> Observable<Element>
        where S.Element == Element {
        from(Array(sequence), scheduler: scheduler)
    }
}
