import EventLoopIO
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// Happy Eyeballs on loopback: a name whose first address drops the handshake (a listener that
/// never accepts, its queue full) and whose second is a working server. Sequential attempts would
/// wait on the first until the connect timeout and fail; staggered ones start the second 250 ms
/// later and succeed. No name resolves to two addresses on these machines, so the test hands the
/// client its addresses through the resolver seam.
final class HappyEyeballsTests: HTTPClientTestCase {
    private var blackHole: TCPSocket?
    private var queued: [TCPSocket] = []

    override func tearDown() {
        queued.forEach { $0.close() }
        queued = []
        blackHole?.close()
        blackHole = nil
        super.tearDown()
    }

    /// A listener with the shortest queue, filled by connections nobody accepts: the kernel drops
    /// the next handshake (its SYN) instead of completing or refusing it.
    private func makeBlackHole() throws -> UInt16 {
        let listener = try TCPSocket.listen(backlog: 0)
        blackHole = listener
        let port = try listener.localPort()
        // Fill the accept queue; a connection that no longer completes shows it is full.
        for _ in 0..<4 {
            let (socket, inProgress) = try TCPSocket.startConnect(to: try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true).first))
            queued.append(socket)
            if inProgress, try !socket.wait(for: Int16(POLLOUT), timeout: .milliseconds(300)) { return port }
        }
        throw XCTSkip("the kernel kept completing handshakes to a listener with a full queue")
    }

    func testASecondAddressConnectsWhileTheFirstDropsTheHandshake() throws {
        let silentPort = try makeBlackHole()
        let serverPort = server.port
        let resolver = HostResolver(
            literal: { _, _ in nil },
            lookUp: { _, _ throws(SocketError) in
                try SocketAddress.resolve(host: "127.0.0.1", port: silentPort, numericOnly: true)
                    + SocketAddress.resolve(host: "127.0.0.1", port: serverPort, numericOnly: true)
            }
        )
        let group = try EventLoopGroup(count: 1, label: "HappyEyeballsTests")
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5)), loops: group, resolver: resolver)
        defer { client.closeIdleConnections() }
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://eyeballs.test:\(serverPort)/echo")))
        let started = ContinuousClock.now
        let (result, _) = try executeAsync(request, on: client)
        let took = ContinuousClock.now - started
        XCTAssertEqual(try result.get().status, 200, "the second address answered")
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
        XCTAssertGreaterThanOrEqual(took, ConnectAttempts.staggerDelay, "the second attempt waited its turn behind the first")
    }

    /// With one address only, a dropped handshake is a connect timeout (the second attempt of the
    /// test above is what saved it).
    func testASingleAddressThatDropsTheHandshakeTimesOut() throws {
        let silentPort = try makeBlackHole()
        let resolver = HostResolver(
            literal: { _, _ in nil },
            lookUp: { _, _ throws(SocketError) in try SocketAddress.resolve(host: "127.0.0.1", port: silentPort, numericOnly: true) }
        )
        let group = try EventLoopGroup(count: 1, label: "HappyEyeballsTests.single")
        let client = HTTPClient(configuration: .init(connectTimeout: .milliseconds(800)), loops: group, resolver: resolver)
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://eyeballs.test:\(silentPort)/echo")))
        let (result, _) = try executeAsync(request, on: client)
        guard case .failure(.timedOut(.connect, let after, let host, _)) = result else {
            return XCTFail("expected a connect timeout, got \(result)")
        }
        XCTAssertEqual(after, .milliseconds(800))
        XCTAssertEqual(host, "eyeballs.test")
    }
}
