import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Records every hook and changes what it is allowed to change.
struct RecordingPlugin: PluginType {
    let log: Recorder<String>
    var replaceFailuresWith: Response?

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        log.append("prepare")
        var request = request
        request.setValue("yes", forHTTPHeaderField: "X-Prepared")
        return request
    }

    func willSend(_ request: any RequestType, target: any TargetType) {
        log.append("willSend X-Prepared=\(request.request?.value(forHTTPHeaderField: "X-Prepared") ?? "nil")")
    }

    func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
        switch result {
        case .success(let response): log.append("didReceive \(response.statusCode)")
        case .failure(let error): log.append("didReceive failure \(error.underlyingError?.urlError?.code.rawValue ?? 0)")
        }
    }

    func process(_ result: Result<Response, ProviderError>, target: any TargetType) -> Result<Response, ProviderError> {
        log.append("process")
        if case .failure = result, let replacement = replaceFailuresWith { return .success(replacement) }
        return result
    }
}

final class PluginOrderTests: LeakCheckingTestCase {
    func testHooksRunInOrderAndWillSendSeesWhatPrepareChanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.immediatelyStub,
                                                   plugins: [RecordingPlugin(log: log)], scheduler: scheduler)
        let res = scheduler.start { provider.rx.request(.ok).map { $0.request?.value(forHTTPHeaderField: "X-Prepared") } }
        XCTAssertEqual(res.events, [.next(200, "yes"), .completed(200)])
        XCTAssertEqual(log.values, ["prepare", "willSend X-Prepared=yes", "didReceive 200", "process"])
    }

    func testProcessCanReplaceTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let replacement = Response(statusCode: 299, data: Data())
        let provider = NetworkProvider<StubbedAPI>(
            endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.immediatelyStub,
            plugins: [RecordingPlugin(log: log, replaceFailuresWith: replacement)], scheduler: scheduler)
        let res = scheduler.start { provider.rx.request(.failing(.timedOut)).map { $0.statusCode } }
        XCTAssertEqual(res.events, [.next(200, 299), .completed(200)])
        XCTAssertEqual(log.values.last, "process")
    }

    func testActivityPluginIsBalancedOnSuccessFailureAndCancel() {
        let scheduler = TestScheduler(initialClock: 0)
        let changes = Recorder<String>()
        let activity = NetworkActivityPlugin { change, _ in changes.append(change == .began ? "began" : "ended") }
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint,
                                                   stubClosure: NetworkProvider.delayedStub(.seconds(10)),
                                                   plugins: [activity], scheduler: scheduler)
        let observer = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(100) { provider.rx.request(.ok).map { $0.statusCode }.asObservable().subscribe(observer).disposed(by: bag) }
        scheduler.scheduleAt(100) { provider.rx.request(.failing(.cannotConnectToHost)).map { $0.statusCode }.asObservable().subscribe(observer).disposed(by: bag) }
        let cancelled = SerialDisposable()
        scheduler.scheduleAt(100) { cancelled.disposable = provider.rx.request(.ok).map { $0.statusCode }.asObservable().subscribe(observer) }
        scheduler.scheduleAt(105) {
            XCTAssertEqual(activity.inFlightCount, 3)
            cancelled.dispose()
        }
        scheduler.start()
        XCTAssertEqual(activity.inFlightCount, 0)
        XCTAssertEqual(changes.values.filter { $0 == "began" }.count, 3)
        XCTAssertEqual(changes.values.filter { $0 == "ended" }.count, 3)
        XCTAssertEqual(observer.events.count, 3, "success (next + completed) and one failure; the cancelled one says nothing")
        XCTAssertEqual(observer.events.first?.time, 110)
    }
}
