import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// A transport that reports the progress it is told to, then answers 200 with what it was sent.
private struct ScriptedProgressTransport: HTTPTransport {
    let downloadFractions: [Double]
    let uploadSteps: [(Int64, Int64?)]

    func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        send(request, options: TransportOptions(downloadProgress: progress), completion: completion)
    }

    func send(_ request: URLRequest, options: TransportOptions,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        for (sent, total) in uploadSteps { options.uploadProgress?(sent, total) }
        for fraction in downloadFractions { options.downloadProgress?(fraction) }
        completion(.success(Response(statusCode: 200, data: Data("done".utf8), request: request)))
        return Handle()
    }

    struct Handle: Cancellable {
        var isCancelled: Bool { false }
        func cancel() {}
    }
}

/// Moya's progress: `ProgressResponse` updates, then a last one with the response.
final class ProgressTests: LeakCheckingTestCase {
    private func progressValues(_ transport: any HTTPTransport, _ target: ServerRoute) -> [String] {
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let updates = Recorder<String>()
        let done = Recorder<Int>()
        provider.request(target, progress: { updates.append("\($0.progress)\($0.completed ? " completed" : "")") }) { result in
            done.append((try? result.get().statusCode) ?? -1)
        }
        XCTAssertTrue(waitUntil(timeout: 20) { done.count == 1 })
        XCTAssertEqual(done.values, [200])
        return updates.values
    }

    func testDownloadFractionsThenTheCompletedResponse() {
        let transport = ScriptedProgressTransport(downloadFractions: [0.25, 0.5, 0.75, 1.0], uploadSteps: [])
        let values = progressValues(transport, ServerRoute(baseURL: URL(string: "http://127.0.0.1:9/")!, path: "x"))
        XCTAssertEqual(values, ["0.25", "0.5", "0.75", "1.0", "1.0 completed"])
    }

    func testUploadsReportUploadProgress() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).bin")
        try Data(count: 10).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = ScriptedProgressTransport(downloadFractions: [0.5], uploadSteps: [(0, 8), (2, 8), (8, 8), (9, nil)])
        var target = ServerRoute(baseURL: URL(string: "http://127.0.0.1:9/")!, path: "x")
        target.method = .post
        target.task = .uploadFile(file)
        XCTAssertEqual(progressValues(transport, target), ["0.25", "1.0", "1.0 completed"],
                       "upload progress only, as Moya reports for uploads; nothing sent yet and an unknown total are skipped")
    }

    func testRequestWithProgressEmitsUpdatesThenCompletes() {
        let transport = ScriptedProgressTransport(downloadFractions: [0.5, 1.0], uploadSteps: [])
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            provider.rx.requestWithProgress(ServerRoute(baseURL: URL(string: "http://127.0.0.1:9/")!, path: "x"))
                .map { "\($0.progress) \($0.completed) \($0.response?.statusCode ?? 0)" }
        }
        XCTAssertEqual(res.events, [.next(200, "0.5 false 0"), .next(200, "1.0 false 0"), .next(200, "1.0 true 200"), .completed(200)])
    }

    func testRequestWithProgressFailsWithTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.immediatelyStub,
                                                   scheduler: scheduler)
        let res = scheduler.start { provider.rx.requestWithProgress(.failing(.timedOut)).map(\.completed) }
        XCTAssertEqual(res.events.count, 2, "\(res.events)")
        XCTAssertEqual(res.events.first?.value.element, false, "the last update carries no response")
        guard case .error(ProviderError.underlying(let error as URLError, nil))? = res.events.last?.value else {
            return XCTFail("\(res.events)")
        }
        XCTAssertEqual(error.code, .timedOut)
    }

    func testStubbedRequestEndsWithOneCompletedUpdate() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.delayedStub(.seconds(3)),
                                                   scheduler: scheduler)
        let res = scheduler.start { provider.rx.requestWithProgress(.ok).map { $0.response?.statusCode ?? 0 } }
        XCTAssertEqual(res.events, [.next(203, 200), .completed(203)])
    }

    func testProgressResponseValues() {
        XCTAssertEqual(ProgressResponse().progress, 0)
        XCTAssertFalse(ProgressResponse(progress: 0.4).completed)
        XCTAssertEqual(ProgressResponse(progress: 0.4).progress, 0.4)
        XCTAssertEqual(ProgressResponse(progress: 0.4, response: Response(statusCode: 200, data: Data())).progress, 1)
        XCTAssertEqual(ProgressResponse(progress: 7).progress, 1)
        let seen = Recorder<Double>()
        let block: ProgressBlock = { seen.append($0.progress) }
        let providerBlock: NetworkProvider<StubbedAPI>.ProgressBlock = block
        providerBlock(ProgressResponse(progress: 0.5))
        XCTAssertEqual(seen.values, [0.5])
    }

    func testRealDownloadProgressRisesToOneOverBothTransports() throws {
        let server = try FeedServer()
        defer { server.stop() }
        for transport in [DefaultTransport(), URLSessionTransport(configuration: .ephemeral)] as [any HTTPTransport] {
            let values = progressValues(transport, ServerRoute(baseURL: server.baseURL, path: "bytes/2000000"))
            let fractions = values.dropLast().compactMap(Double.init)
            XCTAssertGreaterThan(fractions.count, 1, "\(type(of: transport)): \(values)")
            XCTAssertGreaterThan(fractions.first ?? 0, 0, "\(type(of: transport)): no leading 0.0, as Moya")
            XCTAssertEqual(fractions, fractions.sorted(), "\(type(of: transport))")
            XCTAssertEqual(fractions.last, 1)
            XCTAssertEqual(values.last, "1.0 completed")
        }
    }

    /// Moya's progress for a body of unknown size (no `Content-Length`): progress 0 (its
    /// `Progress` indeterminate) each time bytes arrive, then 1 with the response.
    func testUnknownLengthReportsZerosAsBytesArriveThenOneOverBothTransports() throws {
        let body = [UInt8](repeating: UInt8(ascii: "z"), count: 2_000_000)
        let server = try ScriptedHTTPServer { _, _, _ in
            .respondAndClose(Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n".utf8) + body)
        }
        defer { server.stop() }
        for transport in [SocketTransport(), URLSessionTransport(configuration: .ephemeral)] as [any HTTPTransport] {
            let provider = NetworkProvider<ServerRoute>(transport: transport)
            let updates = Recorder<ProgressResponse>()
            let done = Recorder<Int>()
            provider.request(ServerRoute(baseURL: server.url("/"), path: "unsized"), progress: { updates.append($0) }) {
                done.append((try? $0.get().data.count) ?? -1)
            }
            XCTAssertTrue(waitUntil(timeout: 20) { done.count == 1 })
            XCTAssertEqual(done.values, [body.count], "\(type(of: transport))")
            let during = updates.values.dropLast()
            XCTAssertGreaterThan(during.count, 1, "\(type(of: transport)): an update for each arrival of bytes")
            XCTAssertEqual(Set(during.map(\.progress)), [0], "\(type(of: transport))")
            XCTAssertFalse(during.contains(where: \.completed))
            XCTAssertEqual(during.first?.progressObject?.totalUnitCount, -1, "indeterminate, as Alamofire's Progress")
            XCTAssertEqual(during.first?.progressObject?.isIndeterminate, true)
            XCTAssertEqual(updates.values.last?.progress, 1)
            XCTAssertEqual(updates.values.last?.completed, true)
        }
    }

    func testProgressObjectCarriesTheUnits() throws {
        let counted = Progress(totalUnitCount: 8)
        counted.completedUnitCount = 2
        let response = ProgressResponse(progress: counted)
        XCTAssertEqual(response.progress, 0.25)
        XCTAssertEqual(response.progressObject?.completedUnitCount, 2)
        XCTAssertEqual(response.progressObject?.totalUnitCount, 8)
        XCTAssertEqual(response.progressObject?.fractionCompleted, 0.25)
        XCTAssertEqual(ProgressResponse(progress: Progress(totalUnitCount: -1)).progress, 0, "unknown total: 0, as Moya")
        XCTAssertEqual(ProgressResponse(progress: nil as Progress?).progress, 0)
        XCTAssertNil(ProgressResponse(progress: nil as Progress?).progressObject)
        XCTAssertNil(ProgressResponse(progress: 0.5).progressObject, "a bare fraction has no units")
        XCTAssertEqual(ProgressResponse(progress: counted, response: Response(statusCode: 200, data: Data())).progress, 1)
    }

    func testUploadProgressObjectsCountBytes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).bin")
        try Data(count: 8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = ScriptedProgressTransport(downloadFractions: [], uploadSteps: [(2, 8), (8, 8)])
        var target = ServerRoute(baseURL: URL(string: "http://127.0.0.1:9/")!, path: "x")
        target.method = .post
        target.task = .uploadFile(file)
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let updates = Recorder<String>()
        let done = Recorder<Int>()
        provider.request(target, progress: { update in
            let object = update.progressObject
            updates.append("\(object?.completedUnitCount ?? -9)/\(object?.totalUnitCount ?? -9)\(update.completed ? " completed" : "")")
        }) { _ in done.append(1) }
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertEqual(updates.values, ["2/8", "8/8", "8/8 completed"])
    }

    func testRealUploadProgressForDataFileAndMultipartBodies() throws {
        let server = try FeedServer(configuration: .init(maxBodyBytes: 4_000_000))
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).bin")
        try Data(repeating: 7, count: 1_000_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let form = MultipartFormData()
        form.append(Data(repeating: 1, count: 300_000), name: "data")
        form.append(file, withName: "file")
        let tasks: [(String, RequestTask)] = [
            ("file", .uploadFile(file)),
            ("multipart parts", .uploadMultipart([MultipartFormBodyPart(provider: .data(Data(repeating: 2, count: 500_000)), name: "d"),
                                                  MultipartFormBodyPart(provider: .file(file), name: "f")])),
            ("multipart form", .uploadMultipartFormData(form)),
        ]
        for transport in [DefaultTransport(), URLSessionTransport(configuration: .ephemeral)] as [any HTTPTransport] {
            for (label, task) in tasks {
                var target = ServerRoute(baseURL: server.baseURL, path: "echo")
                target.method = .post
                target.task = task
                let values = progressValues(transport, target)
                let fractions = values.dropLast().compactMap(Double.init)
                XCTAssertFalse(fractions.isEmpty, "\(type(of: transport)) \(label): \(values)")
                XCTAssertEqual(fractions, fractions.sorted(), "\(type(of: transport)) \(label)")
                XCTAssertEqual(fractions.last, 1, "\(type(of: transport)) \(label): \(values)")
                XCTAssertEqual(values.last, "1.0 completed")
            }
        }
    }
}
