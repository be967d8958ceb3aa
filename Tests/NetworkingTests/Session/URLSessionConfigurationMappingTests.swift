import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

/// `SocketTransport(configuration: URLSessionConfiguration)`: each property a Moya or Alamofire
/// user sets lands where docs/COMING_FROM.md's table says, and the transport acts on it against
/// a real server.
final class URLSessionConfigurationMappingTests: LeakCheckingTestCase {
    func testEveryMappedPropertyLands() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["user-agent": "Legacy/9", "X-Team": "ios"]
        configuration.timeoutIntervalForRequest = 7
        configuration.timeoutIntervalForResource = 30
        configuration.httpMaximumConnectionsPerHost = 3
        let storage = SessionTestSupport.storage()
        configuration.httpCookieStorage = storage
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = URLCache(memoryCapacity: 123_456, diskCapacity: 0, diskPath: nil)
        configuration.requestCachePolicy = .returnCacheDataElseLoad
        let transport = SocketTransport(configuration: configuration)
        XCTAssertEqual(transport.configuration.idleTimeout, .seconds(7))
        XCTAssertEqual(transport.configuration.overallDeadline, .seconds(30))
        XCTAssertEqual(transport.configuration.maximumConnectionsPerHost, 3)
        XCTAssertEqual(transport.session.headers["user-agent"], "Legacy/9")
        XCTAssertNil(transport.session.headers["User-Agent"], "the configuration's field replaces the default of any case")
        XCTAssertEqual(transport.session.headers["X-Team"], "ios")
        XCTAssertEqual(transport.session.headers["Accept-Language"], DefaultHeaders.standard["Accept-Language"])
        XCTAssertTrue(transport.session.cookieStorage === storage)
        XCTAssertFalse(transport.session.shouldSetCookies)
        XCTAssertEqual(transport.session.cookieAcceptPolicy, .never)
        XCTAssertEqual(transport.session.cache?.store.memoryByteLimit, 123_456)
        XCTAssertEqual(transport.session.requestCachePolicy, .returnCacheDataElseLoad)

        let defaults = SocketTransport(configuration: URLSessionConfiguration.default)
        XCTAssertNil(defaults.configuration.overallDeadline, "URLSession's seven days bound nothing")
        XCTAssertTrue(defaults.session.cookieStorage === HTTPCookieStorage.shared)
        XCTAssertTrue(defaults.session.cache === HTTPCache.shared, "URLCache.shared is the shared HTTP cache")
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        XCTAssertNil(SocketTransport(configuration: configuration).session.cache)
        XCTAssertNil(SocketTransport(configuration: configuration).session.cookieStorage)
    }

    func testTheServerReceivesTheConfigurationsHeadersAndTheIdleTimeoutFires() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-Team": "ios"]
        let transport = SocketTransport(configuration: configuration)
        let response = try SessionTestSupport.send(URLRequest(url: server.baseURL.appendingPathComponent("echo")), through: transport)
        let echo = try JSONDecoder().decode(EchoedRequest.self, from: response.data)
        XCTAssertEqual(echo.field("X-Team"), "ios")
        XCTAssertEqual(echo.field("User-Agent"), DefaultHeaders.standard["User-Agent"])

        let silent = try LoopbackListener(.silent)
        defer { silent.stop() }
        configuration.timeoutIntervalForRequest = 0.3
        let failure = try SessionTestSupport.failure(URLRequest(url: URL(fixed: "http://127.0.0.1:\(silent.port)/")),
                                                     through: SocketTransport(configuration: configuration))
        XCTAssertEqual(failure.urlError?.code, .timedOut)
    }
}
