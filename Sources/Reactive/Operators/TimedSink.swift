import Foundation

/// The shared part of the sinks that act `dueTime` after an event on a scheduler (`delay`,
/// `debounce`, `throttle`): the due time, the scheduler, and the recursive lock under which
/// their state changes and their events go downstream (timers fire on the scheduler's thread).
// @unchecked: immutable fields and a lock; subclasses document the state the lock guards.
class TimedSink<Element: Sendable>: Sink<Element>, @unchecked Sendable {
    final let dueTime: Duration
    final let scheduler: any SchedulerType
    final let lock = NSRecursiveLock()

    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }
}
