import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import Reactive
import ReactiveTesting
import Synchronization
import TestSupport
import XCTest

/// Where the pipeline tests point their `Requestable` targets, and what they log.
enum PipelineEnvironment {
    static let provider = Lock<NetworkProvider<PipelineAPI>?>(nil)
    static let lines = Recorder<String>()
}

/// The seed pipeline's target: one provider per type, requests logged with the call site.
enum PipelineAPI: Requestable {
    case user
    case broken

    static var provider: NetworkProvider<PipelineAPI> {
        PipelineEnvironment.provider.withLock { $0 } ?? NetworkProvider<PipelineAPI>()
    }

    static var requestLog: RequestLog { RequestLog { PipelineEnvironment.lines.append($0) } }

    var baseURL: URL { PipelineEnvironment.baseURL }
    var path: String { self == .user ? "echo" : "status/500" }
    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
    var sampleData: Data { Data(#"{"method":"GET","path":"/echo"}"#.utf8) }
}

extension PipelineEnvironment {
    static let base = Lock(URL(string: "https://api.example.test/")!)
    static var baseURL: URL { base.withLock { $0 } }
}

final class RequestablePipelineTests: LeakCheckingTestCase {
    override func tearDown() {
        PipelineEnvironment.provider.withLock { $0 = nil }
        super.tearDown()
    }

    func testStubbedPipelineDecodesAndLogsRequestAndSuccessWithTheCallSite() {
        let scheduler = TestScheduler(initialClock: 0)
        PipelineEnvironment.provider.withLock {
            $0 = NetworkProvider(stubClosure: NetworkProvider.delayedStub(.seconds(3)), scheduler: scheduler)
        }
        let before = PipelineEnvironment.lines.count
        let res = scheduler.start { PipelineAPI.user.request().map(Echo.self).map(\.path) }
        XCTAssertEqual(res.events, [.next(203, "/echo"), .completed(203)])
        let lines = Array(PipelineEnvironment.lines.values.dropFirst(before))
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("REQUEST GET echo at NetworkingTests/RequestablePipelineTests.swift:"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("SUCCESS (200) GET echo at "), lines[1])
        XCTAssertTrue(lines[1].contains("testStubbedPipelineDecodesAndLogsRequestAndSuccessWithTheCallSite"), lines[1])
    }

    func testRealPipelineClassifiesAServerErrorAndLogsItsCodeAndMessage() throws {
        let server = try FeedServer()
        defer { server.stop() }
        PipelineEnvironment.base.withLock { $0 = server.baseURL }
        defer { PipelineEnvironment.base.withLock { $0 = URL(string: "https://api.example.test/")! } }
        PipelineEnvironment.provider.withLock { $0 = NetworkProvider() }
        let before = PipelineEnvironment.lines.count
        let results = Recorder<String>()
        let subscription = PipelineAPI.broken.request().subscribe(
            onSuccess: { _ in results.append("success") },
            onFailure: { error in results.append((error as? APIError)?.statusCode.map { "rest \($0)" } ?? "\(error)") }
        )
        XCTAssertTrue(waitUntil { results.count == 1 })
        subscription.dispose()
        XCTAssertEqual(results.values, ["rest 500"])
        let lines = Array(PipelineEnvironment.lines.values.dropFirst(before))
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[1].hasPrefix("FAILURE (500) E500: "), lines[1])

        let decoded = Recorder<String>()
        let success = PipelineAPI.user.request().map(Echo.self).subscribe(onSuccess: { decoded.append($0.path) })
        XCTAssertTrue(waitUntil { decoded.count == 1 })
        success.dispose()
        XCTAssertEqual(decoded.values, ["/echo"])
    }
}
