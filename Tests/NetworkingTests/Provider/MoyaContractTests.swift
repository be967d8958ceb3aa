import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// A transport that holds every request until the test answers it, counting the sends.
private final class HeldTransport: HTTPTransport, Sendable {
    private let held = Lock<[(request: URLRequest, completion: @Sendable (Result<Response, ProviderError>) -> Void)]>([])

    var sends: Int { held.withLock { $0.count } }

    func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        held.withLock { $0.append((request, completion)) }
        return Handle()
    }

    /// Answers the first request held with `status`.
    func answerFirst(_ status: Int) {
        guard let first = held.withLock({ $0.first }) else { return }
        first.completion(.success(Response(statusCode: status, data: Data(), request: first.request)))
    }

    struct Handle: Cancellable {
        var isCancelled: Bool { false }
        func cancel() {}
    }
}

/// A value with enough keys that Linux's `JSONEncoder` writes them in more than one order over
/// a few dozen encodings (it orders keys by hash; Apple's keeps declaration order).
private struct Wide: Encodable, Sendable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8
}

/// Moya's and Alamofire's contracts where ours once differed, each through the provider where it shows there.
final class MoyaContractTests: LeakCheckingTestCase {
    private let base = URL(string: "http://127.0.0.1:9/api")!

    func testJSONEndpointsOfOneValueAreEqualWhateverTheKeyOrder() throws {
        let endpoints = (0..<50).map { _ in endpoint(.requestJSONEncodable(Wide()), method: .post) }
        XCTAssertEqual(Set(endpoints).count, 1, "every build of one value is one endpoint, in whatever order its keys were written")
        XCTAssertEqual(Set(endpoints.map(\.hashValue)).count, 1)
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys]
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted]
        let compact = endpoint(.requestCustomJSONEncodable(Wide(), encoder: sorted), method: .post)
        let spaced = endpoint(.requestCustomJSONEncodable(Wide(), encoder: pretty), method: .post)
        XCTAssertNotEqual(try compact.urlRequest().httpBody, try spaced.urlRequest().httpBody, "different texts")
        XCTAssertEqual(compact, spaced, "of one JSON value")
        XCTAssertEqual(compact.hashValue, spaced.hashValue)
        XCTAssertEqual(compact, endpoints[0])
        XCTAssertNotEqual(compact, endpoint(.requestJSONEncodable(Wide(h: 9)), method: .post), "another value")
        XCTAssertNotEqual(compact, endpoint(.requestCustomJSONEncodable(Wide(), encoder: sorted), method: .put), "another method")
    }

    func testTrackInflightsSharesJSONRequestsWhateverTheKeyOrder() {
        let transport = HeldTransport()
        let provider = NetworkProvider<TestTarget>(transport: transport, trackInflights: true)
        let target = TestTarget(baseURL: base, method: .post, task: .requestJSONEncodable(Wide()))
        let answers = Recorder<Int>()
        for _ in 0..<30 { provider.request(target) { answers.append((try? $0.get().statusCode) ?? -1) } }
        XCTAssertEqual(transport.sends, 1, "every request joins the first, however its body lists the keys")
        transport.answerFirst(201)
        XCTAssertEqual(answers.values, Array(repeating: 201, count: 30))
    }

    func testInflightRequestsHoldTheEntryWhileTheSharedCompletionsRun() {
        let transport = HeldTransport()
        let provider = NetworkProvider<TestTarget>(transport: transport, trackInflights: true)
        let target = TestTarget(baseURL: base)
        let seen = Recorder<String>()
        for name in ["first", "second"] {
            provider.request(target) { _ in
                let entry = provider.inflightRequests
                seen.append("\(name): \(entry.count) entry, \(entry.values.first?.count ?? 0) completions")
            }
        }
        transport.answerFirst(200)
        XCTAssertEqual(seen.values, ["first: 1 entry, 2 completions", "second: 1 entry, 2 completions"])
        XCTAssertTrue(provider.inflightRequests.isEmpty, "removed once the completions returned")
    }

    /// Over `SocketTransport` the answer arrives on an event loop and moves to the provider's
    /// delivery queue (or the `callbackQueue`) before the completions run: the call must still be
    /// listed there, as Moya lists it while its completions run.
    func testInflightRequestsHoldTheEntryWhileCompletionsRunAfterALoopAnswer() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let target = ServerRoute(baseURL: server.baseURL, path: "delay/200")
        for queue in [nil, DispatchQueue(label: "MoyaContractTests.callback")] {
            let provider = NetworkProvider<ServerRoute>(callbackQueue: queue, transport: SocketTransport(), trackInflights: true)
            let seen = Recorder<String>()
            for name in ["first", "second"] {
                provider.request(target) { result in
                    let entry = provider.inflightRequests
                    seen.append("\(name) \((try? result.get().statusCode) ?? -1): \(entry.count) entry, \(entry.values.first?.count ?? 0) completions")
                }
            }
            XCTAssertTrue(waitUntil { seen.count == 2 })
            XCTAssertEqual(seen.values, ["first 200: 1 entry, 2 completions", "second 200: 1 entry, 2 completions"],
                           "callbackQueue \(queue?.label ?? "none")")
            XCTAssertTrue(waitUntil { provider.inflightRequests.isEmpty }, "removed once the completions returned")
        }
        XCTAssertEqual(server.requestCount(path: "/delay/200"), 2, "one shared call per provider")
    }

    func testACallerWithAnotherQueueGetsTheSharedAnswerOnItsQueue() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let target = ServerRoute(baseURL: server.baseURL, path: "delay/200")
        let own = DispatchQueue(label: "MoyaContractTests.own")
        let key = DispatchSpecificKey<String>()
        own.setSpecific(key: key, value: "own")
        let provider = NetworkProvider<ServerRoute>(transport: SocketTransport(), trackInflights: true)
        let seen = Recorder<String>()
        provider.request(target) { _ in seen.append("first on \(DispatchQueue.getSpecific(key: key) ?? "the provider's queue")") }
        provider.request(target, callbackQueue: own) { _ in seen.append("second on \(DispatchQueue.getSpecific(key: key) ?? "the provider's queue")") }
        XCTAssertTrue(waitUntil { seen.count == 2 })
        XCTAssertEqual(Set(seen.values), ["first on the provider's queue", "second on own"])
        XCTAssertEqual(server.requestCount(path: "/delay/200"), 1, "one call shared by both")
    }

    func testANewIdenticalRequestDuringTheCompletionsStartsItsOwnCall() {
        let transport = HeldTransport()
        let provider = NetworkProvider<TestTarget>(transport: transport, trackInflights: true)
        let target = TestTarget(baseURL: base)
        let late = Recorder<Int>()
        provider.request(target) { _ in
            provider.request(target) { late.append((try? $0.get().statusCode) ?? -1) }
        }
        transport.answerFirst(200)
        XCTAssertEqual(transport.sends, 2, "the request made inside the completion is sent, not lost")
        XCTAssertEqual(provider.inflightRequests.count, 1)
        XCTAssertEqual(late.values, [])
    }

    func testMultipartFormsCompareByTheirParts() throws {
        let one = MultipartFormData()
        one.append(Data("v".utf8), name: "k")
        let two = MultipartFormData()
        two.append(Data("v".utf8), withName: "k")
        let three = MultipartFormData()
        three.append(Data("v".utf8), name: "k", fileName: "k.txt")
        XCTAssertEqual(endpoint(.uploadMultipartFormData(one), method: .post), endpoint(.uploadMultipartFormData(two), method: .post),
                       "two forms with the same parts, each with its own boundary")
        XCTAssertEqual(endpoint(.uploadMultipartFormData(one), method: .post).hashValue,
                       endpoint(.uploadMultipartFormData(two), method: .post).hashValue)
        XCTAssertNotEqual(endpoint(.uploadMultipartFormData(one), method: .post), endpoint(.uploadMultipartFormData(three), method: .post))
        XCTAssertEqual(endpoint(.uploadCompositeMultipartFormData(one, urlParameters: ["p": 1]), method: .post),
                       endpoint(.uploadCompositeMultipartFormData(two, urlParameters: ["p": 1]), method: .post))
        XCTAssertNotEqual(endpoint(.uploadCompositeMultipartFormData(one, urlParameters: ["p": 1]), method: .post),
                          endpoint(.uploadCompositeMultipartFormData(one, urlParameters: ["p": 2]), method: .post))
        let stream = InputStream(data: Data("s".utf8))
        let streamed = { () -> MultipartFormData in
            let form = MultipartFormData()
            form.append(stream, withLength: 1, name: "s", fileName: "s", mimeType: "text/plain")
            return form
        }
        XCTAssertEqual(endpoint(.uploadMultipartFormData(streamed()), method: .post), endpoint(.uploadMultipartFormData(streamed()), method: .post),
                       "one stream: same part")
        XCTAssertEqual(stream.streamStatus, .notOpen, "comparing opened no stream")
    }

    func testEqualityAndHashReadNoFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        let upload = endpoint(.uploadFile(file), method: .post)
        let parts = endpoint(.uploadMultipart([MultipartFormBodyPart(provider: .file(file), name: "f")]), method: .post)
        let form = MultipartFormData()
        form.append(file, withName: "f")
        let formUpload = endpoint(.uploadMultipartFormData(form), method: .post)
        let hashes = [upload.hashValue, parts.hashValue, formUpload.hashValue]
        try FileManager.default.removeItem(at: file)
        XCTAssertEqual([upload.hashValue, parts.hashValue, formUpload.hashValue], hashes,
                       "the file is gone, the hashes stay: they never looked at it")
        XCTAssertEqual(upload, endpoint(.uploadFile(file), method: .post))
        XCTAssertEqual(parts, endpoint(.uploadMultipart([MultipartFormBodyPart(provider: .file(file), name: "f")]), method: .post))
    }

    func testURLEncodingWritesBoolsAsOneAndZeroAndWholeNumbersWithoutAFraction() throws {
        let parameters: [String: any Sendable] = [
            "a": 1, "b": 0, "c": 1.0, "d": 0.0,
            "e": NSNumber(value: 1), "f": NSNumber(value: 0), "g": NSNumber(value: 1.0), "h": NSNumber(value: 0.0),
            "i": true, "j": false, "k": NSNumber(value: true), "l": NSNumber(value: false),
            "m": 1.5, "n": Float(0.25),
        ]
        let query = { (encoding: URLEncoding) -> String? in
            let scheduler = TestScheduler(initialClock: 0)
            let provider = NetworkProvider<TestTarget>(stubClosure: NetworkProvider.immediatelyStub, scheduler: scheduler)
            let target = TestTarget(baseURL: self.base, task: .requestParameters(parameters: parameters, encoding: encoding))
            let res = scheduler.start { provider.rx.request(target).map { $0.request?.url?.query ?? "" } }
            return res.events.first?.value.element
        }
        XCTAssertEqual(query(URLEncoding.default), "a=1&b=0&c=1&d=0&e=1&f=0&g=1&h=0&i=1&j=0&k=1&l=0&m=1.5&n=0.25",
                       "Alamofire's numeric booleans, and 1.0 written as 1 as Alamofire writes it")
        XCTAssertEqual(query(URLEncoding(boolEncoding: .literal)), "a=1&b=0&c=1&d=0&e=1&f=0&g=1&h=0&i=true&j=false&k=true&l=false&m=1.5&n=0.25")
    }

    func testRequestWithProgressEmitsMoyasSequenceForFourChunks() {
        let transport = ChunkedProgressTransport(fractions: [0, 0.25, 0.5, 0.75, 1])
        let provider = NetworkProvider<TestTarget>(transport: transport)
        let scheduler = TestScheduler(initialClock: 0)
        let target = TestTarget(baseURL: base)
        let res = scheduler.start {
            provider.rx.requestWithProgress(target).map { "\($0.progress)\($0.completed ? " completed" : "")" }
        }
        XCTAssertEqual(res.events, [.next(200, "0.25"), .next(200, "0.5"), .next(200, "0.75"), .next(200, "1.0"),
                                    .next(200, "1.0 completed"), .completed(200)],
                       "no leading 0.0: the transport's report at the response head is not an update")
    }
}

/// Reports the given download fractions (a real transport reports 0 when the head arrives), then 200.
private struct ChunkedProgressTransport: HTTPTransport {
    let fractions: [Double]

    func send(_ request: URLRequest, progress: (@Sendable (Double) -> Void)?,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        for fraction in fractions { progress?(fraction) }
        completion(.success(Response(statusCode: 200, data: Data(), request: request)))
        return HeldTransport.Handle()
    }
}
