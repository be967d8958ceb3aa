import HTTPClient

/// An `HTTPClient` exchange as the `Cancellable` a transport returns: two words (an object's
/// existential), held inline by `any Cancellable`.
struct ClientTaskCancellable: Cancellable {
    let task: any HTTPClientTaskObject

    var isCancelled: Bool { task.isCancelled }

    func cancel() { task.cancel() }
}
