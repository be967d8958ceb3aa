import Dispatch

/// Where answers that arrive on an event loop run, decided in one place for `HTTPClient` and
/// `Networking`'s `NetworkProvider` alike: on the queue the caller gave, else on a serial queue of
/// that client's or provider's own that targets one shared queue. No caller code runs on a loop,
/// no thread waits or spins while idle, and one owner's slow completion delays only its own answers.
package enum AnswerDelivery {
    /// The queue every owner's own delivery queue targets.
    package static let sharedTarget = DispatchQueue(label: "HTTPClient.delivery", attributes: .concurrent)

    /// `given` when there is one; else a new serial queue named `label` on the shared target.
    package static func queue(_ given: DispatchQueue?, label: String) -> DispatchQueue {
        given ?? DispatchQueue(label: label, target: sharedTarget)
    }
}
