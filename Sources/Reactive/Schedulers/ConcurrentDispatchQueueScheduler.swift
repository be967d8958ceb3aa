import Foundation

/// Runs work on a concurrent dispatch queue: actions may run in parallel.
public struct ConcurrentDispatchQueueScheduler: DispatchQueueSchedulerType {
    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on the global queue of the given quality of service.
    public init(qos: DispatchQoS) {
        self.queue = DispatchQueue.global(qos: qos.qosClass)
    }
}
