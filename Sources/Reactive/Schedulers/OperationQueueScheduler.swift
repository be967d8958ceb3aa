import Foundation

/// Runs work as operations on an `OperationQueue` (RxSwift's `OperationQueueScheduler`): the
/// queue's `maxConcurrentOperationCount` decides how many run at once.
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 2
/// source.observe(on: OperationQueueScheduler(operationQueue: queue))
/// ```
public struct OperationQueueScheduler: SchedulerType {
    /// The queue the operations are added to.
    public let operationQueue: OperationQueue
    /// The priority of every operation this scheduler adds.
    public let queuePriority: Operation.QueuePriority

    /// A scheduler adding its work to `operationQueue` with `queuePriority`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// The wall-clock time.
    public var now: Date { Date() }

    /// Adds an operation running `action`; disposing cancels it if it has not started.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let pending = ScheduledAction(action)
        let operation = BlockOperation { pending.run() }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        let handle = UncheckedOperation(operation)
        return Disposables.create {
            pending.dispose()
            handle.operation.cancel()
        }
    }

    /// Adds the operation once `dueTime` has passed (a dispatch timer waits meanwhile).
    @discardableResult
    public func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        if dueTime <= .zero { return schedule(action) }
        let operation = SerialDisposable()
        let timer = DispatchQueueTimer.schedule(on: .global(), after: dueTime) {
            operation.disposable = self.schedule(action)
        }
        return Disposables.create(timer, operation)
    }
}

/// Lets the disposal closure cancel the operation.
// @unchecked: `Operation.cancel()` is thread-safe; nothing else is touched.
final class UncheckedOperation: @unchecked Sendable {
    let operation: Operation
    init(_ operation: Operation) { self.operation = operation }
}
