import Foundation

/// RxSwift's initializer names for the dispatch-queue schedulers, so ported code compiles.
extension SerialDispatchQueueScheduler {
    /// A scheduler on `serialQueue`, which must be serial (RxSwift's `init(serialQueue:)`).
    public init(serialQueue: DispatchQueue) {
        self.init(queue: serialQueue)
    }

    /// A scheduler on a new serial queue labelled `internalSerialQueueName`, which
    /// `serialQueueConfiguration` may set up first.
    ///
    /// ```swift
    /// let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "app.parsing")
    /// ```
    public init(internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil) {
        let queue = DispatchQueue(label: internalSerialQueueName)
        serialQueueConfiguration?(queue)
        self.init(queue: queue)
    }

    /// A scheduler on a new serial queue labelled `internalSerialQueueName` that runs its work
    /// on `queue` (which may be concurrent).
    public init(queue: DispatchQueue, internalSerialQueueName: String) {
        self.init(queue: DispatchQueue(label: internalSerialQueueName, target: queue))
    }

    /// A scheduler on a new serial queue labelled `internalSerialQueueName` with `qos`.
    public init(qos: DispatchQoS, internalSerialQueueName: String) {
        self.init(qos: qos, label: internalSerialQueueName)
    }
}

extension MainScheduler {
    /// RxSwift's `MainScheduler.asyncInstance`: always goes through the main queue, as every
    /// `MainScheduler` here does.
    public static let asyncInstance = MainScheduler()
}
