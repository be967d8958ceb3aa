import Foundation
import Locking
import Networking
import ReactiveTesting
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub answers handed out in order (the last one repeats), recording the tick of each request.
final class ScriptedAnswers: Sendable {
    private let answers: [EndpointSampleResponse]
    private let scheduler: TestScheduler
    private let state = Lock<(served: Int, ticks: [Int])>((0, []))

    init(_ answers: [EndpointSampleResponse], scheduler: TestScheduler) {
        self.answers = answers
        self.scheduler = scheduler
    }

    /// The ticks at which requests were built, one per attempt.
    var requestTicks: [Int] { state.withLock { $0.ticks } }

    /// How many stub answers were produced.
    var served: Int { state.withLock { $0.served } }

    /// A provider whose endpoints answer from the script on `scheduler`.
    func provider<Target: TargetType>(
        _: Target.Type = Target.self,
        stubClosure: @escaping NetworkProvider<Target>.StubClosure = NetworkProvider<Target>.immediatelyStub,
        requestTimeout: Duration? = nil
    ) -> NetworkProvider<Target> {
        NetworkProvider<Target>(
            endpointClosure: { target in
                self.state.withLock { $0.ticks.append(self.scheduler.clock) }
                return Endpoint(target: target, sampleResponseClosure: { self.next() })
            },
            stubClosure: stubClosure,
            scheduler: scheduler,
            requestTimeout: requestTimeout
        )
    }

    private func next() -> EndpointSampleResponse {
        let index = state.withLock { state -> Int in
            defer { state.served += 1 }
            return state.served
        }
        return answers[min(index, answers.count - 1)]
    }

    /// A JSON body.
    static func json(_ text: String) -> Data { Data(text.utf8) }

    /// A stubbed response with headers.
    static func response(_ status: Int, headers: [String: String], body: Data = Data()) -> EndpointSampleResponse {
        let url = URL(fixed: "http://127.0.0.1/scripted")
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
            return .networkResponse(status, body)
        }
        return .response(response, body)
    }
}

/// A target for scripted stubs.
struct ScriptedTarget: TargetType {
    var baseURL = URL(fixed: "http://127.0.0.1:9/api")
    var path = "/thing"
    var method = HTTPMethod.get
    var task = RequestTask.requestPlain
    var headers: [String: String]? = nil
}
