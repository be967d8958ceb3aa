import FeedServer
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// `HTTPClientTimings` from real requests on 127.0.0.1: each moment in the order the steps
/// happen, a kept-alive connection's missing connect, the TLS handshake, byte counts from the
/// socket, a failure's timings through the request's handler, and a stream's once its body ends.
final class TimingsTests: HTTPClientTestCase {
    private func assertInOrder(_ instants: [ContinuousClock.Instant?], file: StaticString = #filePath, line: UInt = #line) {
        let known = instants.compactMap { $0 }
        XCTAssertEqual(known.count, instants.count, "every moment is known", file: file, line: line)
        XCTAssertEqual(known, known.sorted(), "in the order the steps happen", file: file, line: line)
    }

    func testANewConnectionsMomentsComeInOrderAndAReusedOneHasNoConnect() throws {
        let first = try executeWithCompletion(HTTPClientRequest(url: url("bytes/100000"))).get().timings
        assertInOrder([first.queued, first.resolved, first.connected, first.sent, first.firstByte, first.finished])
        XCTAssertNil(first.secured, "plain http is not secured")
        XCTAssertNil(first.tls)
        XCTAssertFalse(first.reusedConnection)
        XCTAssertEqual(first.remoteAddress, "127.0.0.1:\(server.port)")
        XCTAssertGreaterThan(first.bytesReceived, 100_000, "the body and its head, as read from the socket")
        XCTAssertGreaterThan(first.bytesSent, 30, "the request's head")
        XCTAssertLessThan(first.bytesSent, 400)
        XCTAssertNotNil(first.total)
        XCTAssertNotNil(first.waitingForFirstByte)

        let body = Data(repeating: 9, count: 50_000)
        let second = try executeWithCompletion(HTTPClientRequest(url: url("echo"), method: "POST", body: .bytes(body))).get().timings
        XCTAssertTrue(second.reusedConnection)
        XCTAssertEqual(second.remoteAddress, first.remoteAddress, "the same connection's")
        XCTAssertNil(second.resolved, "a kept-alive connection was not resolved again")
        XCTAssertNil(second.connected)
        assertInOrder([second.queued, second.sent, second.firstByte, second.finished])
        XCTAssertGreaterThan(second.bytesSent, 50_000, "the body went out too")
        XCTAssertGreaterThan(try XCTUnwrap(second.queued), try XCTUnwrap(first.finished), "each request has its own")
    }

    func testAFailuresTimingsReachTheRequestsHandlerBeforeTheCompletion() throws {
        let events = Recorder<String>()
        let measured = Recorder<HTTPClientTimings>()
        var request = HTTPClientRequest(url: url("hang"), idleTimeout: .milliseconds(200))
        request.timingsHandler = { timings in
            measured.append(timings)
            events.append("timings")
        }
        let done = DispatchSemaphore(value: 0)
        client.execute(request) { result in
            events.append(result.isSuccess ? "success" : "failure")
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(events.values, ["timings", "failure"])
        let timings = try XCTUnwrap(measured.values.first)
        assertInOrder([timings.queued, timings.connected, timings.sent, timings.finished])
        XCTAssertNil(timings.firstByte, "no answer came")
        XCTAssertEqual(timings.bytesReceived, 0)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(timings.total), .milliseconds(200), "it ran until the idle timeout")
    }

    func testAStreamsTimingsArriveWhenItsBodyEnds() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("drip?interval=50&count=5"))
        let done = DispatchSemaphore(value: 0)
        let seen = Recorder<String>()
        let measured = Recorder<HTTPClientTimings>()
        Task {
            do {
                let response = try await client.stream(request)
                seen.append("before: \(response.timings == nil ? "none" : "some")")
                _ = try await response.collect(upTo: 1 << 20)
                if let timings = response.timings { measured.append(timings) }
            } catch {
                seen.append("\(error)")
            }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(seen.values, ["before: none"])
        let timings = try XCTUnwrap(measured.values.first)
        assertInOrder([timings.queued, timings.connected, timings.sent, timings.firstByte, timings.finished])
        XCTAssertGreaterThan(timings.bytesReceived, 5)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(timings.finished) - (try XCTUnwrap(timings.firstByte)), .milliseconds(150), "the body dripped after the head")
    }
}

/// The TLS handshake's moment, between the connect and the request going out.
final class HTTPSTimingsTests: HTTPClientTestCase {
    override func setUpWithError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client))
    }

    func testTheHandshakeComesBetweenTheConnectAndTheRequest() throws {
        let response = try executeWithCompletion(HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo"))).get()
        let timings = response.timings
        let steps = [timings.queued, timings.resolved, timings.connected, timings.secured, timings.sent, timings.firstByte, timings.finished]
        XCTAssertEqual(steps.compactMap { $0 }.count, steps.count, "every moment is known")
        XCTAssertEqual(steps.compactMap { $0 }, steps.compactMap { $0 }.sorted())
        XCTAssertGreaterThan(timings.bytesReceived, Int64(response.body.count), "TLS records weigh more than the plaintext")
    }

    /// The version, cipher and ALPN the handshake agreed on, as OpenSSL names them; a kept-alive
    /// connection's request reports its connection's.
    func testTheHandshakesVersionCipherAndProtocolAreReported() throws {
        let url = server.baseURL.appendingPathComponent("echo")
        let first = try XCTUnwrap(try executeWithCompletion(HTTPClientRequest(url: url)).get().timings.tls)
        XCTAssertEqual(first.version, .v1_3)
        XCTAssertEqual(first.applicationProtocol, "http/1.1")
        let cipher = try XCTUnwrap(first.cipher)
        XCTAssertTrue(cipher.hasPrefix("TLS_"), "a TLS 1.3 suite: \(cipher)")
        let second = try executeWithCompletion(HTTPClientRequest(url: url)).get().timings
        XCTAssertTrue(second.reusedConnection)
        XCTAssertNil(second.secured, "no handshake on a kept-alive connection")
        XCTAssertEqual(second.tls, first, "the connection's handshake")
    }

    func testATLS12ServersCipherIsNamedTheTLS12Way() throws {
        let old = try FeedServer(configuration: .init(tls: TLSServerConfiguration(
            certificateChain: TLSFixtures.server().certificateChain, privateKey: TLSFixtures.server().privateKey, maximumVersion: .v1_2)))
        defer { old.stop() }
        let tls = try XCTUnwrap(try executeWithCompletion(HTTPClientRequest(url: old.baseURL.appendingPathComponent("echo"))).get().timings.tls)
        XCTAssertEqual(tls.version, .v1_2)
        let cipher = try XCTUnwrap(tls.cipher)
        XCTAssertFalse(cipher.hasPrefix("TLS_"), "a TLS 1.2 suite has OpenSSL's older name: \(cipher)")
        XCTAssertTrue(cipher.contains("GCM") || cipher.contains("CHACHA20"), "an AEAD suite: \(cipher)")
    }
}

private extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
