import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import PhotoFeed
import Reactive
import ReactiveTesting

/// A transport answering picture requests on a `TestScheduler`: each URL after its scripted
/// delay (or never), with its scripted bytes or else the demo JPEG of its file name; it records
/// every send and cancel with its virtual time.
final class ScheduledImageTransport: HTTPTransport {
    struct Call: Equatable {
        let time: Int
        let url: String
    }

    private let scheduler: TestScheduler
    private let delays: [String: Int]
    private let defaultDelay: Int?
    private let bodies: [String: Data]
    private let sent = Lock<[Call]>([])
    private let cancelled = Lock<[Call]>([])

    /// Answers `url` after `delays[url]` ticks, others after `defaultDelay` (`nil`: never), with
    /// `bodies[url]` when there is one.
    init(scheduler: TestScheduler, defaultDelay: Int?, delays: [String: Int] = [:], bodies: [String: Data] = [:]) {
        self.scheduler = scheduler
        self.defaultDelay = defaultDelay
        self.delays = delays
        self.bodies = bodies
    }

    var sends: [Call] { sent.withLock { $0 } }
    var cancels: [Call] { cancelled.withLock { $0 } }

    func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        let url = request.url?.absoluteString ?? ""
        let scheduler = self.scheduler
        sent.withLock { $0.append(Call(time: scheduler.clock, url: url)) }
        let call = ScheduledCall()
        if let delay = delays[url] ?? defaultDelay {
            let scripted = bodies[url]
            let timer = scheduler.scheduleRelative(.seconds(delay)) {
                let body = scripted ?? Data(DemoPicture(name: request.url?.lastPathComponent ?? "").jpeg())
                completion(.success(Response(statusCode: 200, data: body, request: request)))
            }
            call.onCancel { timer.dispose() }
        }
        call.onCancel { [self] in cancelled.withLock { $0.append(Call(time: scheduler.clock, url: url)) } }
        return call
    }
}

/// A cancellable running its actions once on `cancel()`.
final class ScheduledCall: Cancellable {
    private let actions = Lock<(cancelled: Bool, list: [@Sendable () -> Void])>((false, []))

    var isCancelled: Bool { actions.withLock { $0.cancelled } }

    func onCancel(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.list.append(action) }
    }

    func cancel() {
        let list = actions.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            return state.list
        }
        list.forEach { $0() }
    }
}
