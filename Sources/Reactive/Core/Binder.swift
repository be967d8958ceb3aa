/// An observer that applies each element to a target on a scheduler, as long as the target
/// lives (RxSwift's `Binder`): elements after the target is gone are dropped, completion is
/// ignored, and an error (a programming error for a binding) is written to `DebugLog`.
///
/// ```swift
/// let title = Binder(label) { label, text in label.text = text }
/// names.bind(to: title).disposed(by: bag)
/// ```
public struct Binder<Value: Sendable>: ObserverType, Sendable {
    private let binding: @Sendable (Event<Value>) -> Void

    /// Applies `binding` to `target` (held weakly) for every element, on `scheduler`
    /// (`MainScheduler.instance` by default).
    public init<Target: AnyObject & Sendable>(
        _ target: Target, scheduler: any SchedulerType = MainScheduler.instance,
        binding: @escaping @Sendable (Target, Value) -> Void
    ) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let element):
                scheduler.schedule {
                    if let target = weakTarget { binding(target, element) }
                }
            case .error(let error):
                DebugLog.write("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    /// Delivers `event` as described above.
    public func on(_ event: Event<Value>) { binding(event) }
}
