import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Networking
import TestSupport
import XCTest

/// The `Response` `SocketTransport` reports keeps the head and builds its `HTTPURLResponse` on
/// first read: the object says what the head said, every read (from any thread) gives the same
/// instance, and a cached answer given again gives the instance of the response it came from.
final class SocketTransportResponseTests: LeakCheckingTestCase {
    private var server: ScriptedHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try ScriptedHTTPServer { _, _, head in
            SessionTestSupport.answer(201, [("Cache-Control", "max-age=60"), ("X-Twice", "a"), ("X-Twice", "b")],
                                      body: "body of \(head.path)")
        }
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    func testTheHTTPURLResponseSaysWhatTheHeadSaidAndIsOneInstance() throws {
        let transport = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: nil))
        defer { transport.close() }
        let response = try SessionTestSupport.send(URLRequest(url: server.url("/one")), through: transport)
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(String(decoding: response.data, as: UTF8.self), "body of /one")
        XCTAssertEqual(response.responseURL, server.url("/one"), "read without building the object")
        XCTAssertEqual(response.headerFields["X-Twice"], "a, b")

        // Read from several threads at once: one instance for all.
        let instances = Recorder<ObjectIdentifier>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let http = response.response { instances.append(ObjectIdentifier(http)) }
        }
        XCTAssertEqual(instances.count, 8)
        XCTAssertEqual(Set(instances.values).count, 1)
        let http = try XCTUnwrap(response.response)
        XCTAssertTrue(response.response === http)
        XCTAssertEqual(http.statusCode, 201)
        XCTAssertEqual(http.url, server.url("/one"))
        XCTAssertEqual(http.value(forHTTPHeaderField: "x-twice"), "a, b")
        XCTAssertEqual(response.headerValue("Cache-Control"), "max-age=60")
        XCTAssertEqual(response, response, "equal to itself, the built object compared")
    }

    func testACachedAnswerGivesTheInstanceOfTheResponseItCameFrom() throws {
        let transport = SocketTransport(session: SessionOptions(cookieStorage: nil, cache: HTTPCache(memoryCapacity: 1 << 20)))
        defer { transport.close() }
        let first = try SessionTestSupport.send(URLRequest(url: server.url("/cached")), through: transport)
        let again = try SessionTestSupport.send(URLRequest(url: server.url("/cached")), through: transport)
        XCTAssertEqual(server.requests.count, 1, "the second answer came from the cache")
        // The cached answer's object is built first here, then read through the first response.
        let http = try XCTUnwrap(again.response)
        XCTAssertTrue(first.response === http)
        XCTAssertEqual(again.responseURL, server.url("/cached"))
        XCTAssertEqual(again.headerFields["X-Twice"], "a, b")
        XCTAssertEqual(again.statusCode, 201)
        XCTAssertEqual(String(decoding: again.data, as: UTF8.self), "body of /cached")
        XCTAssertNil(again.fileURL)
    }
}
