import Foundation
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cacheable target: GETs by default, with an optional fixed key.
private struct CachedTarget: CacheableTarget {
    var baseURL = URL(fixed: "http://127.0.0.1:9/api")
    var path = "/feed"
    var method = HTTPMethod.get
    var task = RequestTask.requestPlain
    var headers: [String: String]? = nil
}

private struct KeyedTarget: CacheableTarget {
    var key: String?
    var baseURL: URL { URL(fixed: "http://127.0.0.1:9/api") }
    var path: String { "/keyed" }
    var method: HTTPMethod { .post }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
    var cacheKey: String? { key }
}

final class ResponseCacheTests: LeakCheckingTestCase {
    private var directories: [URL] = []

    override func tearDown() {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
        directories = []
        super.tearDown()
    }

    private func temporaryDirectory() -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ResponseCacheTests-\(UUID().uuidString)", isDirectory: true)
        directories.append(directory)
        return directory
    }

    private func response(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Response {
        let url = URL(fixed: "http://127.0.0.1:9/api/feed?page=1")
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        return Response(statusCode: status, data: Data(text.utf8), request: request,
                        response: HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
    }

    private func files(in directory: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    // MARK: - Memory

    func testEvictsTheLeastRecentlyUsed() {
        let cache = ResponseCache(capacity: 3)
        for key in ["a", "b", "c"] { cache.store(response(key), forKey: key) }
        XCTAssertEqual(cache.memoryKeys, ["a", "b", "c"])
        XCTAssertEqual(cache.response(forKey: "a")?.data, Data("a".utf8))
        XCTAssertEqual(cache.memoryKeys, ["b", "c", "a"])
        cache.store(response("d"), forKey: "d")
        XCTAssertEqual(cache.memoryKeys, ["c", "a", "d"])
        XCTAssertNil(cache.response(forKey: "b"))
        cache.store(response("c2"), forKey: "c")
        XCTAssertEqual(cache.memoryKeys, ["a", "d", "c"])
        cache.store(response("e"), forKey: "e")
        XCTAssertEqual(cache.memoryKeys, ["d", "c", "e"])
        XCTAssertEqual(cache.response(forKey: "c")?.data, Data("c2".utf8))
    }

    func testMissesDoNotChangeTheOrderAndRemovalWorks() {
        let cache = ResponseCache(capacity: 2)
        cache.store(response("a"), forKey: "a")
        cache.store(response("b"), forKey: "b")
        XCTAssertNil(cache.response(forKey: "zzz"))
        XCTAssertEqual(cache.memoryKeys, ["a", "b"])
        cache.removeResponse(forKey: "a")
        XCTAssertEqual(cache.memoryKeys, ["b"])
        cache.store(response("c"), forKey: "c")
        cache.store(response("d"), forKey: "d")
        XCTAssertEqual(cache.memoryKeys, ["c", "d"])
        cache.removeAll()
        XCTAssertEqual(cache.memoryKeys, [])
        XCTAssertNil(cache.response(forKey: "d"))
    }

    func testZeroCapacityKeepsNothingInMemory() {
        let cache = ResponseCache(capacity: 0)
        cache.store(response("a"), forKey: "a")
        XCTAssertEqual(cache.memoryKeys, [])
        XCTAssertNil(cache.response(forKey: "a"))
    }

    func testConcurrentUseStaysWithinCapacity() {
        let cache = ResponseCache(capacity: 10)
        DispatchQueue.concurrentPerform(iterations: 2000) { index in
            let key = "k\(index % 50)"
            if index % 3 == 0 { cache.removeResponse(forKey: key) }
            cache.store(Response(statusCode: 200, data: Data(key.utf8)), forKey: key)
            if let hit = cache.response(forKey: key) { XCTAssertEqual(hit.statusCode, 200) }
        }
        let keys = cache.memoryKeys
        XCTAssertLessThanOrEqual(keys.count, 10)
        XCTAssertEqual(Set(keys).count, keys.count)
        for key in keys { XCTAssertEqual(cache.response(forKey: key)?.data, Data(key.utf8)) }
    }

    // MARK: - Disk

    func testDiskRoundTripInAnotherCacheInstance() {
        let directory = temporaryDirectory()
        let key = "GET http://127.0.0.1:9/api/feed?tags=a b&lang=ü/../../etc"
        let original = response(#"{"items":[1,2,3]}"#, headers: ["Content-Type": "application/json", "ETag": "\"v1\""])
        ResponseCache(capacity: 2, directory: directory).store(original, forKey: key)

        let written = files(in: directory)
        XCTAssertEqual(written.count, 1)
        let name = written.first?.lastPathComponent ?? ""
        XCTAssertTrue(name.range(of: "^[0-9a-f]{32}\\.response$", options: .regularExpression) != nil, name)

        let reopened = ResponseCache(capacity: 2, directory: directory)
        XCTAssertEqual(reopened.memoryKeys, [])
        let restored = reopened.response(forKey: key)
        XCTAssertEqual(restored?.statusCode, 200)
        XCTAssertEqual(restored?.data, original.data)
        XCTAssertEqual(restored?.headerValue("content-type"), "application/json")
        XCTAssertEqual(restored?.headerValue("ETag"), "\"v1\"")
        XCTAssertEqual(restored?.response?.url, original.response?.url)
        XCTAssertEqual(restored?.request?.httpMethod, "GET")
        XCTAssertEqual(reopened.memoryKeys, [key], "a disk hit is promoted into memory")
    }

    func testMemoryEvictionKeepsTheDiskCopy() {
        let directory = temporaryDirectory()
        let cache = ResponseCache(capacity: 1, directory: directory)
        cache.store(response("a"), forKey: "a")
        cache.store(response("b"), forKey: "b")
        XCTAssertEqual(cache.memoryKeys, ["b"])
        XCTAssertEqual(cache.response(forKey: "a")?.data, Data("a".utf8))
        XCTAssertEqual(cache.memoryKeys, ["a"])
        XCTAssertEqual(files(in: directory).count, 2)
    }

    func testCorruptFilesReadAsMissesAndAreDeleted() throws {
        let directory = temporaryDirectory()
        let writer = ResponseCache(capacity: 4, directory: directory)
        writer.store(response("one"), forKey: "one")
        writer.store(response("two"), forKey: "two")
        let one = try XCTUnwrap(writer.fileURL(forKey: "one"))
        let two = try XCTUnwrap(writer.fileURL(forKey: "two"))
        try Data([0xFF, 0x00, 0x7B, 0x22]).write(to: one)
        let full = try Data(contentsOf: two)
        try full.prefix(full.count / 2).write(to: two)

        let reader = ResponseCache(capacity: 4, directory: directory)
        XCTAssertNil(reader.response(forKey: "one"))
        XCTAssertNil(reader.response(forKey: "two"))
        XCTAssertEqual(files(in: directory), [])
        reader.store(response("again"), forKey: "one")
        XCTAssertEqual(ResponseCache(directory: directory).response(forKey: "one")?.data, Data("again".utf8))
    }

    func testAFileHoldingAnotherKeyIsAMiss() throws {
        let directory = temporaryDirectory()
        let cache = ResponseCache(capacity: 0, directory: directory)
        cache.store(response("mine"), forKey: "mine")
        let mine = try XCTUnwrap(cache.fileURL(forKey: "mine"))
        let theirs = try XCTUnwrap(cache.fileURL(forKey: "theirs"))
        try FileManager.default.copyItem(at: mine, to: theirs)
        XCTAssertNil(cache.response(forKey: "theirs"))
        XCTAssertEqual(cache.response(forKey: "mine")?.data, Data("mine".utf8))
    }

    func testRemovalDeletesOnlyTheCachesFiles() throws {
        let directory = temporaryDirectory()
        let cache = ResponseCache(directory: directory)
        cache.store(response("a"), forKey: "a")
        cache.store(response("b"), forKey: "b")
        let foreign = directory.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: foreign)
        cache.removeResponse(forKey: "a")
        XCTAssertNil(ResponseCache(directory: directory).response(forKey: "a"))
        XCTAssertEqual(files(in: directory).count, 2)
        cache.removeAll()
        XCTAssertEqual(files(in: directory), [foreign])
    }

    func testUnwritableDirectoryStillCachesInMemory() throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("a file, not a directory".utf8).write(to: directory)
        let cache = ResponseCache(capacity: 2, directory: directory)
        cache.store(response("a"), forKey: "a")
        XCTAssertEqual(cache.response(forKey: "a")?.data, Data("a".utf8))
    }

    // MARK: - Keys

    func testDefaultCacheKeyIsMethodAndURLForGETOnly() {
        let get = CachedTarget(task: .requestParameters(parameters: ["tags": "cat", "page": 2], encoding: URLEncoding.queryString))
        XCTAssertEqual(get.cacheKey, "GET http://127.0.0.1:9/api/feed?page=2&tags=cat")
        XCTAssertNotEqual(get.cacheKey, CachedTarget().cacheKey)
        XCTAssertNil(CachedTarget(method: .post).cacheKey)
        XCTAssertEqual(KeyedTarget(key: "custom").cacheKey, "custom")
        XCTAssertNil(KeyedTarget(key: nil).defaultCacheKey)
    }

    // MARK: - Stale while revalidate

    private func eventNames(_ events: [Recorded<Event<Response>>]) -> [String] {
        events.map { recorded in
            switch recorded.value {
            case .next(let response): return "next(\(recorded.time), \(response.data.utf8Text))"
            case .completed: return "completed(\(recorded.time))"
            case .error: return "error(\(recorded.time))"
            }
        }
    }

    private func scripted(_ answers: [EndpointSampleResponse], scheduler: TestScheduler) -> (ScriptedAnswers, NetworkProvider<CachedTarget>) {
        let script = ScriptedAnswers(answers, scheduler: scheduler)
        return (script, script.provider(stubClosure: NetworkProvider.delayedStub(.seconds(5))))
    }

    func testEmitsCachedThenFreshAndStoresFresh() throws {
        let scheduler = TestScheduler()
        let (_, provider) = scripted([.networkResponse(200, Data("fresh".utf8))], scheduler: scheduler)
        let cache = ResponseCache(capacity: 4)
        let key = try XCTUnwrap(CachedTarget().cacheKey)
        cache.store(response("stale"), forKey: key)
        let observer = scheduler.start { provider.rx.requestCached(CachedTarget(), cache: cache) }
        XCTAssertEqual(eventNames(observer.events), ["next(200, stale)", "next(205, fresh)", "completed(205)"])
        XCTAssertEqual(cache.response(forKey: key)?.data, Data("fresh".utf8))
    }

    func testWithoutACachedResponseOnlyFreshThenCachedNextTime() throws {
        let scheduler = TestScheduler()
        let (script, provider) = scripted([.networkResponse(200, Data("first".utf8)), .networkResponse(200, Data("second".utf8))],
                                          scheduler: scheduler)
        let cache = ResponseCache(capacity: 4)
        let first = scheduler.start { provider.rx.requestCached(CachedTarget(), cache: cache) }
        XCTAssertEqual(eventNames(first.events), ["next(205, first)", "completed(205)"])

        let observer = scheduler.createObserver(Response.self)
        let subscription = provider.rx.requestCached(CachedTarget(), cache: cache).subscribe(observer)
        scheduler.advanceBy(10)
        subscription.dispose()
        XCTAssertEqual(eventNames(observer.events), ["next(1000, first)", "next(1005, second)", "completed(1005)"])
        XCTAssertEqual(script.served, 2)
    }

    func testFailureAfterTheCachedResponseFailsAndKeepsTheCache() throws {
        let scheduler = TestScheduler()
        let (_, provider) = scripted([.networkError(URLError(.notConnectedToInternet))], scheduler: scheduler)
        let cache = ResponseCache(capacity: 4)
        let key = try XCTUnwrap(CachedTarget().cacheKey)
        cache.store(response("stale"), forKey: key)
        let observer = scheduler.start { provider.rx.requestCached(CachedTarget(), cache: cache) }
        XCTAssertEqual(eventNames(observer.events), ["next(200, stale)", "error(205)"])
        guard case .error(let error)? = observer.events.last?.value else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.isNotConnection)
        XCTAssertEqual(cache.response(forKey: key)?.data, Data("stale".utf8))
    }

    func testErrorStatusIsEmittedButNotStored() throws {
        let scheduler = TestScheduler()
        let (_, provider) = scripted([.networkResponse(500, Data("oops".utf8))], scheduler: scheduler)
        let cache = ResponseCache(capacity: 4)
        let key = try XCTUnwrap(CachedTarget().cacheKey)
        cache.store(response("stale"), forKey: key)
        let observer = scheduler.start { provider.rx.requestCached(CachedTarget(), cache: cache) }
        XCTAssertEqual(eventNames(observer.events), ["next(200, stale)", "next(205, oops)", "completed(205)"])
        XCTAssertEqual(cache.response(forKey: key)?.data, Data("stale".utf8))
    }

    func testTargetWithoutKeyIsNeitherReadNorStored() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(200, Data("fresh".utf8))], scheduler: scheduler)
        let provider: NetworkProvider<KeyedTarget> = script.provider(stubClosure: NetworkProvider.delayedStub(.seconds(5)))
        let cache = ResponseCache(capacity: 4)
        let observer = scheduler.start { provider.rx.requestCached(KeyedTarget(key: nil), cache: cache) }
        XCTAssertEqual(eventNames(observer.events), ["next(205, fresh)", "completed(205)"])
        XCTAssertEqual(cache.memoryKeys, [])
    }

    func testDisposingBeforeTheFreshAnswerCancelsIt() throws {
        let scheduler = TestScheduler()
        let (script, provider) = scripted([.networkResponse(200, Data("fresh".utf8))], scheduler: scheduler)
        let cache = ResponseCache(capacity: 4)
        let key = try XCTUnwrap(CachedTarget().cacheKey)
        cache.store(response("stale"), forKey: key)
        let observer = scheduler.start(disposed: 203) { provider.rx.requestCached(CachedTarget(), cache: cache) }
        XCTAssertEqual(eventNames(observer.events), ["next(200, stale)"])
        XCTAssertEqual(script.served, 0)
        XCTAssertEqual(cache.response(forKey: key)?.data, Data("stale".utf8))
    }

    func testCachedResponseIsReadAtSubscriptionNotAtCreation() throws {
        let scheduler = TestScheduler()
        let (_, provider) = scripted([.networkResponse(200, Data("fresh".utf8))], scheduler: scheduler)
        let cache = ResponseCache(capacity: 4)
        let key = try XCTUnwrap(CachedTarget().cacheKey)
        scheduler.scheduleAt(150) { cache.store(Response(statusCode: 200, data: Data("late".utf8)), forKey: key) }
        let observer = scheduler.start { provider.rx.requestCached(CachedTarget(), cache: cache) }
        XCTAssertEqual(eventNames(observer.events), ["next(200, late)", "next(205, fresh)", "completed(205)"])
    }
}
