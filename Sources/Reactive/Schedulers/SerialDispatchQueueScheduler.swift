import Foundation

/// Runs work in order on a serial dispatch queue.
///
/// ```swift
/// let background = SerialDispatchQueueScheduler(qos: .utility)
/// source.observe(on: background)
/// ```
public struct SerialDispatchQueueScheduler: DispatchQueueSchedulerType {
    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on a new serial queue with the given quality of service.
    public init(qos: DispatchQoS, label: String = "reactive.serial") {
        self.queue = DispatchQueue(label: label, qos: qos)
    }
}
