import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
@testable import Networking
import TestSupport
import XCTest

/// HTTP caching through `SocketTransport` against a scripted server that counts what it
/// receives: a fresh hit sends nothing, a stale entry sends a conditional request and a 304 is
/// answered as the stored 200 with updated fields, `URLRequest.cachePolicy` is honoured, and the
/// memory and disk limits hold. (Linux's URLSession caches nothing, so there is no side by side.)
final class HTTPCacheTests: LeakCheckingTestCase {
    private var server: ScriptedHTTPServer!
    private var directories: [URL] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        let lastModified = HTTPDate.format(Date().addingTimeInterval(-10_000))
        server = try ScriptedHTTPServer { _, _, head in
            let date = ("Date", HTTPDate.format(Date()))
            switch head.path {
            case "/fresh":
                return SessionTestSupport.answer(200, [date, ("Cache-Control", "max-age=60")], body: "fresh body")
            case "/etag":
                if head.headers["If-None-Match"] == "\"v1\"" {
                    return SessionTestSupport.answer(304, [date, ("ETag", "\"v1\""), ("Cache-Control", "max-age=0"), ("X-Revalidated", "yes")])
                }
                return SessionTestSupport.answer(200, [date, ("ETag", "\"v1\""), ("Cache-Control", "max-age=0"), ("X-Revalidated", "no")],
                                                 body: "etag body")
            case "/modified":
                if head.headers["If-Modified-Since"] == lastModified { return SessionTestSupport.answer(304, [date]) }
                return SessionTestSupport.answer(200, [date, ("Last-Modified", lastModified), ("Cache-Control", "no-cache")], body: "modified body")
            case "/heuristic":
                return SessionTestSupport.answer(200, [date, ("Last-Modified", lastModified)], body: "heuristic body")
            case "/nostore":
                return SessionTestSupport.answer(200, [date, ("Cache-Control", "no-store, max-age=60")], body: "secret")
            case "/vary":
                return SessionTestSupport.answer(200, [date, ("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")],
                                                 body: head.headers["Accept-Language"] ?? "-")
            default:
                return SessionTestSupport.answer(200, [date, ("Cache-Control", "max-age=60")], body: String(repeating: "x", count: 90) + head.path)
            }
        }
    }

    override func tearDown() {
        server?.stop()
        server = nil
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    private func transport(_ cache: HTTPCache = HTTPCache(memoryCapacity: 1 << 20)) -> SocketTransport {
        SocketTransport(session: SessionOptions(cookieStorage: nil, cache: cache))
    }

    private func request(_ path: String, policy: URLRequest.CachePolicy = .useProtocolCachePolicy) -> URLRequest {
        var request = URLRequest(url: server.url(path))
        request.cachePolicy = policy
        return request
    }

    private func seen(_ path: String) -> [HTTPRequest] {
        server.requests.filter { $0.head.path == path }
    }

    private func body(_ response: Response) -> String {
        String(decoding: response.data, as: UTF8.self)
    }

    func testAFreshResponseIsAnsweredWithoutARequest() throws {
        let transport = transport()
        XCTAssertEqual(body(try SessionTestSupport.send(request("/fresh"), through: transport)), "fresh body")
        let cached = try SessionTestSupport.send(request("/fresh"), through: transport)
        XCTAssertEqual(body(cached), "fresh body")
        XCTAssertEqual(cached.statusCode, 200)
        XCTAssertEqual(cached.headerValue("Cache-Control"), "max-age=60")
        XCTAssertEqual(seen("/fresh").count, 1, "the second request never reached the server")
        _ = try SessionTestSupport.send(request("/heuristic"), through: transport)
        _ = try SessionTestSupport.send(request("/heuristic"), through: transport)
        XCTAssertEqual(seen("/heuristic").count, 1, "fresh for 10% of the time since Last-Modified")
    }

    func testAStaleResponseIsRevalidatedAndA304AnsweredAsTheStored200WithUpdatedFields() throws {
        let transport = transport()
        let first = try SessionTestSupport.send(request("/etag"), through: transport)
        XCTAssertEqual(first.headerValue("X-Revalidated"), "no")
        let second = try SessionTestSupport.send(request("/etag"), through: transport)
        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(body(second), "etag body")
        XCTAssertEqual(second.headerValue("X-Revalidated"), "yes", "the 304's fields replace the stored ones")
        XCTAssertEqual(seen("/etag").map { $0.head.headers["If-None-Match"] }, [nil, "\"v1\""])

        _ = try SessionTestSupport.send(request("/modified"), through: transport)
        let modified = try SessionTestSupport.send(request("/modified"), through: transport)
        XCTAssertEqual(body(modified), "modified body")
        XCTAssertEqual(modified.statusCode, 200)
        XCTAssertEqual(seen("/modified").count, 2, "no-cache: revalidated every time")
        XCTAssertNotNil(seen("/modified").last?.head.headers["If-Modified-Since"])
    }

    func testCachePolicies() throws {
        let transport = transport()
        _ = try SessionTestSupport.send(request("/fresh"), through: transport)
        _ = try SessionTestSupport.send(request("/fresh", policy: .reloadIgnoringLocalCacheData), through: transport)
        XCTAssertEqual(seen("/fresh").count, 2, "reloadIgnoringLocalCacheData asks the server")

        _ = try SessionTestSupport.send(request("/etag"), through: transport)
        let stale = try SessionTestSupport.send(request("/etag", policy: .returnCacheDataElseLoad), through: transport)
        XCTAssertEqual(body(stale), "etag body")
        XCTAssertEqual(seen("/etag").count, 1, "returnCacheDataElseLoad uses a stale entry as it is")
        XCTAssertEqual(body(try SessionTestSupport.send(request("/etag", policy: .returnCacheDataDontLoad), through: transport)), "etag body")

        let missing = try SessionTestSupport.failure(request("/never", policy: .returnCacheDataDontLoad), through: transport)
        XCTAssertEqual(missing.urlError?.code, .resourceUnavailable)
        XCTAssertTrue(seen("/never").isEmpty)
        _ = try SessionTestSupport.send(request("/else", policy: .returnCacheDataElseLoad), through: transport)
        XCTAssertEqual(seen("/else").count, 1, "a miss loads")

        let configured = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: HTTPCache(memoryCapacity: 1 << 20),
                                                                 requestCachePolicy: .reloadIgnoringLocalCacheData))
        _ = try SessionTestSupport.send(request("/vary"), through: configured)
        _ = try SessionTestSupport.send(request("/vary"), through: configured)
        XCTAssertEqual(seen("/vary").count, 2, "the session's policy applies to a request that keeps the protocol's")
    }

    func testNoStoreVaryAndUnsafeMethods() throws {
        let transport = transport()
        _ = try SessionTestSupport.send(request("/nostore"), through: transport)
        _ = try SessionTestSupport.send(request("/nostore"), through: transport)
        XCTAssertEqual(seen("/nostore").count, 2)

        for language in ["de", "de", "fr", "fr"] {
            var varied = request("/vary")
            varied.setValue(language, forHTTPHeaderField: "Accept-Language")
            XCTAssertEqual(body(try SessionTestSupport.send(varied, through: transport)), language)
        }
        XCTAssertEqual(seen("/vary").count, 2, "a different language is a miss; one response kept per URL, as URLCache keeps")

        _ = try SessionTestSupport.send(request("/fresh"), through: transport)
        var post = request("/fresh")
        post.httpMethod = "POST"
        _ = try SessionTestSupport.send(post, through: transport)
        _ = try SessionTestSupport.send(request("/fresh"), through: transport)
        XCTAssertEqual(seen("/fresh").count, 3, "a POST invalidates the stored GET")
    }

    /// RFC 9111 §5.2.1.5: a request's own `no-store` keeps its answer out of the cache, but a
    /// fresh stored response still answers it.
    func testARequestsOwnNoStoreIsNotStoredButAFreshEntryAnswersIt() throws {
        let cache = HTTPCache(memoryCapacity: 1 << 20)
        let transport = transport(cache)
        var noStore = request("/fresh")
        noStore.setValue("no-store", forHTTPHeaderField: "Cache-Control")
        guard case .uncached = cache.lookup(noStore, url: noStore.url!, method: "GET", fields: HTTPHeaders(noStore.allHTTPHeaderFields ?? [:]),
                                            policy: .useProtocolCachePolicy) else {
            return XCTFail("with nothing stored, the cache has no say in a no-store request")
        }
        XCTAssertEqual(body(try SessionTestSupport.send(noStore, through: transport)), "fresh body")
        XCTAssertNil(cache.cachedResponse(for: request("/fresh")), "not stored")
        _ = try SessionTestSupport.send(request("/fresh"), through: transport)
        XCTAssertEqual(seen("/fresh").count, 2, "the plain request went out")
        XCTAssertEqual(body(try SessionTestSupport.send(noStore, through: transport)), "fresh body")
        XCTAssertEqual(seen("/fresh").count, 2, "the stored answer served the no-store request")
    }

    func testTheProvidersResponseCacheAndTheHTTPCacheShareOneStore() throws {
        let store = ResponseCache(capacity: 10)
        let transport = transport(HTTPCache(store: store))
        let url = server.url("/fresh")
        _ = try SessionTestSupport.send(request("/fresh"), through: transport)
        XCTAssertEqual(store.response(forKey: "GET \(url.absoluteString)").map(body), "fresh body")
        store.removeResponse(forKey: "GET \(url.absoluteString)")
        _ = try SessionTestSupport.send(request("/fresh"), through: transport)
        XCTAssertEqual(seen("/fresh").count, 2, "removed from the store, gone from the HTTP cache")
    }

    private func temporaryDirectory() -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("HTTPCacheTests-\(UUID().uuidString)", isDirectory: true)
        directories.append(directory)
        return directory
    }

    private func files(in directory: URL) -> [URL] {
        (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
    }

    func testTheDiskKeepsResponsesForTheNextProcessWithinItsLimit() throws {
        let directory = temporaryDirectory()
        let first = HTTPCache(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory)
        _ = try SessionTestSupport.send(request("/fresh"), through: transport(first))
        let file = try XCTUnwrap(first.store.fileURL(forKey: HTTPCache.key(method: "GET", url: server.url("/fresh"))))
        XCTAssertTrue(waitUntil { FileManager.default.fileExists(atPath: file.path) }, "written off the loop")
        let reopened = transport(HTTPCache(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory))
        XCTAssertEqual(body(try SessionTestSupport.send(request("/fresh"), through: reopened)), "fresh body")
        XCTAssertEqual(seen("/fresh").count, 1, "answered from the file")

        let small = temporaryDirectory()
        let limited = transport(HTTPCache(memoryCapacity: 0, diskCapacity: 4_000, directory: small))
        for index in 0..<12 { _ = try SessionTestSupport.send(request("/item\(index)"), through: limited) }
        XCTAssertTrue(waitUntil {
            let sizes = files(in: small).filter { $0.pathExtension == "response" }.map { (try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 }
            return !sizes.isEmpty && sizes.reduce(0, +) <= 4_000 && sizes.count < 12
        }, "the oldest files removed to stay within 4000 bytes")
    }

    func testMemoryStaysWithinItsLimitAndLargeResponsesAreNotStored() throws {
        let cache = HTTPCache(memoryCapacity: 4_000)
        let transport = transport(cache)
        for index in 0..<12 { _ = try SessionTestSupport.send(request("/item\(index)"), through: transport) }
        XCTAssertLessThanOrEqual(cache.store.memoryBytes, 4_000)
        XCTAssertGreaterThan(cache.store.memoryBytes, 0)
        let tiny = HTTPCache(memoryCapacity: 1_000)
        _ = try SessionTestSupport.send(request("/big"), through: self.transport(tiny))
        XCTAssertEqual(tiny.store.memoryBytes, 0, "over a twentieth of the limit: not stored, as URLCache")
    }
}
