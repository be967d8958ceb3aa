extension Observable where Element: Sendable {
    /// Emits `initialState`, then each state `iterate` makes from the previous one, while
    /// `condition` holds, then completes; each step is its own action on `scheduler`. A throw
    /// of either closure ends the sequence.
    ///
    /// ```swift
    /// Observable.generate(initialState: 1, condition: { $0 < 100 }, iterate: { $0 * 2 })   // 1, 2, 4, ... 64
    /// ```
    public static func generate(
        initialState: Element,
        condition: @escaping @Sendable (Element) throws -> Bool,
        scheduler: any SchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping @Sendable (Element) throws -> Element
    ) -> Observable<Element> {
        scheduledLoop(on: scheduler, initialState: { (state: initialState, first: true) }) { progress in
            do {
                if !progress.first { progress.state = try iterate(progress.state) }
                progress.first = false
                return try condition(progress.state) ? .next(progress.state) : .completed
            } catch {
                return .error(error)
            }
        }
    }
}
