import HTTPClient

/// An `HTTPClient` exchange as the `Cancellable` a transport returns.
struct ClientTaskCancellable: Cancellable {
    let task: any HTTPClientTask

    var isCancelled: Bool { task.isCancelled }

    func cancel() { task.cancel() }
}
